/**
 * The pull's page reader (pull-page.ts): parses and checks a pull answer's body off the main thread and posts the
 * rows back in slices. Started once by pull.ts as a module worker.
 */
import { answerPageRequest, type PageReply, type PageRequest } from './pull-page';

// why a narrow type of the worker scope: the client's tsconfig has the DOM library, not the WebWorker one.
const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<PageRequest>) => void): void;
  postMessage(reply: PageReply): void;
};

scope.addEventListener('message', (event) => void answerPageRequest(event.data, (reply) => scope.postMessage(reply)));
