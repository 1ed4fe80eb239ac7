/**
 * The app's one toast queue (Chakra UI's toaster), top right: at the bottom it would cover a dialog's buttons. Screens call `toaster.create({...})`; components/app-toaster.tsx
 * renders it once in the app layout.
 */
import { createToaster } from '@chakra-ui/react';

export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 5 });
