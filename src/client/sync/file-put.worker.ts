/**
 * The sender's file uploads (file-put.ts): reads a stored file's bytes from the device database and PUTs them to
 * their signed URL, off the main thread. Started once, on the first upload, by the sync engine.
 */
import { answerFilePut, type FilePutReply, type FilePutRequest } from './file-put';

// why a narrow type of the worker scope: the client's tsconfig has the DOM library, not the WebWorker one.
const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<FilePutRequest>) => void): void;
  postMessage(reply: FilePutReply): void;
};

scope.addEventListener('message', (event) => void answerFilePut(event.data, (reply) => scope.postMessage(reply)));
