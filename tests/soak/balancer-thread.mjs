// The soak's balancer on its own thread (startBalancerThread in balancer.ts). why .mjs with tsx registered here:
// Node 20 does not pass tsx's loader on to a worker thread, so the thread registers it before loading TypeScript.
import { register } from 'tsx/esm/api';
import { parentPort, workerData } from 'node:worker_threads';

register();
const { startBalancer } = await import('./balancer.ts');
const port = parentPort;
const balancer = await startBalancer(workerData.targets);
port.postMessage({ url: balancer.url });
port.on('message', (message) => {
  switch (message.command) {
    case 'count':
      port.postMessage({ id: message.id, value: balancer.exchanges.length });
      break;
    case 'snapshot':
      port.postMessage({ id: message.id, value: { exchanges: balancer.exchanges, upstreamErrors: balancer.upstreamErrors } });
      break;
    case 'close':
      void balancer.close().then(() => port.postMessage({ id: message.id, value: null }));
  }
});
