/** The printed labels of a service sticker (lib/sticker-pdf.ts), in the user's language. */
import { useTranslation } from 'react-i18next';
import type { StickerLabels } from './sticker-pdf';

export function useStickerLabels(): StickerLabels {
  const { t } = useTranslation();
  return { manufacturer: t('sticker.manufacturer'), serialnumber: t('sticker.serialnumber'), equipmentid: t('sticker.equipmentid'), footer: t('sticker.footer') };
}
