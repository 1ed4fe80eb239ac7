/**
 * The type badge of §4.1: label in the type's colour; an unknown type is 'Unbekannter Typ' in black (and the log
 * line 'No type code defined!'), a badge without any type code 'Undefined badge typecode.' (§8).
 */
import { Badge } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationBadgeText, notificationTypeStyle, type NotificationColour } from '../../shared/domain/notification';
import { readableTextOn } from '../lib/readable-text';

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
  const text = notificationBadgeText(type);
  const log = text.kind === 'unknown' ? text.log : null;
  useEffect(() => {
    if (log) console.warn(log, type);
  }, [log, type]);
  // why: the i18n key is built from the type number, which the typed t() cannot check statically.
  // An unknown code reads "Unbekannter Typ" (the spec's text) in German and its translation in English.
  const label = text.kind === 'known' ? t(text.labelKey as 'notification.type.0') : t('notification.type.unknown');
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
