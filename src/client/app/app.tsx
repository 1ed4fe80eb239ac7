/** Root component: waits for the stored session to be restored (showing the boot screen), then the router. */
import { RouterProvider } from 'react-router-dom';
import { BootScreen } from '../components/boot-screen';
import { useSessionStore } from '../stores/session-store';
import { Providers } from './providers';
import { createAppRouter } from './router';

const router = createAppRouter();

export function App() {
  const restoring = useSessionStore((state) => state.status === 'restoring');
  return <Providers>{restoring ? <BootScreen /> : <RouterProvider router={router} />}</Providers>;
}
