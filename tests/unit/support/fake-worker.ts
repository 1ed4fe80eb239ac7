/**
 * why a fake worker: vitest runs in Node without Web Workers. This one runs the worker's own handler (the function
 * the worker script wires to its messages) and copies every message both ways, a task later, as postMessage does,
 * so the protocol under test is the real one. `requests` and `replies` record what each side posted; `fail()`
 * raises the worker's error event (its script could not load, or it died); `silent` never answers.
 */
export function fakeWorker<Request, Reply>(handle: (request: Request, post: (reply: Reply) => void) => unknown, options: { silent?: boolean } = {}) {
  const listeners: { message: ((event: { data: Reply }) => void)[]; error: (() => void)[] } = { message: [], error: [] };
  const requests: Request[] = [];
  const replies: Reply[] = [];
  const worker = {
    postMessage(request: Request) {
      const copy = structuredClone(request);
      requests.push(copy);
      if (options.silent) return;
      setTimeout(() => {
        void handle(copy, (reply) => {
          replies.push(reply);
          const data = structuredClone(reply);
          setTimeout(() => listeners.message.forEach((listener) => listener({ data })), 0);
        });
      }, 0);
    },
    addEventListener(type: 'message' | 'error', listener: never) {
      (listeners[type] as unknown[]).push(listener);
    },
  };
  return { worker, requests, replies, fail: () => listeners.error.forEach((listener) => listener()) };
}
