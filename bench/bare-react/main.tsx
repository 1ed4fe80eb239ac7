/**
 * The comparison app of W6 and W8: React 19 alone, built by the same Vite and React plugin as the app, with the
 * same kind of service worker (a Workbox precache of the build plus index.html for every navigation). It renders
 * what the dashboard's first useful paint shows — a heading and a list of machine links — with no UI library,
 * router, translations or local database: the floor a React app cannot go below.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const MACHINES = Array.from({ length: 24 }, (_, index) => ({ nodeid: String(index + 1), name: `Maschine ${index + 1}` }));

function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Dashboard</h1>
      <ul>
        {MACHINES.map((machine) => (
          <li key={machine.nodeid}>
            <a href={`/machine-overview?nodeid=${machine.nodeid}`}>{machine.name}</a>
          </li>
        ))}
      </ul>
    </main>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

if (import.meta.env.PROD && 'serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js', { scope: '/' });
