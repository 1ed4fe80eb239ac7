/** Renders the app's toasts (lib/toaster.ts): title, description, a close button. Mounted once in the app layout. */
import { Portal, Stack, Toast, Toaster } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { toaster } from '../lib/toaster';

export function AppToaster() {
  const { t } = useTranslation();
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="toast">
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxW="full">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger aria-label={t('machineDocs.toastClose')} />
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
