/** Root component: waits for the stored session to be restored (showing the skeleton), then the router. */
import { RouterProvider } from 'react-router-dom';
import { PageSkeleton } from '../components/page-skeleton';
import { useSessionStore } from '../stores/session-store';
import { Providers } from './providers';
import { createAppRouter } from './router';

const router = createAppRouter();

export function App() {
  const restoring = useSessionStore((state) => state.status === 'restoring');
  return <Providers>{restoring ? <PageSkeleton /> : <RouterProvider router={router} />}</Providers>;
}
