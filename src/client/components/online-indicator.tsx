/** Network state in the app bar. The full sync status (pending changes, last sync) is issue #3. */
import { Badge } from '@chakra-ui/react';
import { Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '../lib/use-online-status';

export function OnlineIndicator() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  return (
    <Badge
      role="status"
      aria-live="polite"
      title={t(online ? 'appBar.onlineHint' : 'appBar.offlineHint')}
      colorPalette={online ? 'green' : 'orange'}
      variant="solid"
      size="lg"
      gap="1.5"
      px="2.5"
      py="1"
      data-online={online}
    >
      {online ? <Wifi size={16} aria-hidden /> : <WifiOff size={16} aria-hidden />}
      {t(online ? 'appBar.online' : 'appBar.offline')}
    </Badge>
  );
}
