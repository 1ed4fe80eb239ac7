/** The type badge of §4.1: label in the type's colour; an unknown type is 'Unbekannter Typ' in black. */
import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { readableTextOn } from '../lib/readable-text';
import { notificationTypeStyle, UNKNOWN_NOTIFICATION_TYPE_TEXT, type NotificationColour } from '../../shared/domain/notification';

const PALETTE: Record<Exclude<NotificationColour, 'black' | 'grey'>, string> = {
  red: 'red',
  amber: 'yellow',
  blue: 'blue',
  purple: 'purple',
  green: 'green',
  orange: 'orange',
};

export function NotificationTypeBadge({ type, colorcode }: { type: unknown; colorcode?: string | null }) {
  const { t } = useTranslation();
  const style = notificationTypeStyle(type, colorcode);
  // why: the i18n key is built from the type number, which the typed t() cannot check statically.
  const label = style.known ? t(style.labelKey as 'notification.type.0') : UNKNOWN_NOTIFICATION_TYPE_TEXT;
  const common = { size: 'md', variant: 'solid', maxW: 'full', whiteSpace: 'normal', textAlign: 'start', 'data-colour': style.colour } as const;
  // A category's own colour: dark or white text, whichever reads better on it (WCAG contrast).
  if (style.colorcode) return <Badge {...common} bg={style.colorcode} color={readableTextOn(style.colorcode)}>{label}</Badge>;
  if (style.colour === 'black') return <Badge {...common} bg="black" color="white">{label}</Badge>;
  // why: the grey palette's solid shade is nearly black, which the spec keeps for unknown types.
  if (style.colour === 'grey') return <Badge {...common} bg="gray.500" color="white">{label}</Badge>;
  return (
    <Badge {...common} colorPalette={PALETTE[style.colour]}>
      {label}
    </Badge>
  );
}
