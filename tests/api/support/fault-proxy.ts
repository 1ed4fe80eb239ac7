import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SyncBatchRequest } from '../../../src/shared/api/sync';

// why a proxy: the server's fault plugin (src/server/plugins/fault-injection.ts) can only act on requests that
// reached the app. Being offline, a request lost on the way in, a request delivered twice and an upload cut off
// mid-body happen between the device and the server, so a small HTTP proxy on 127.0.0.1 plays the network.

/** What the network does to one matching request. */
export type NetworkFault =
  /** The request never reaches the server; the device sees the connection reset. */
  | { kind: 'drop-request' }
  /** The server answers, the answer is lost on the way back (connection reset). */
  | { kind: 'drop-response' }
  /** The request reaches the server twice (the second copy after the first was answered); the device gets the first answer. */
  | { kind: 'duplicate' }
  /** The answer reaches the device only after `delayMs`. */
  | { kind: 'delay-response'; delayMs: number }
  /** A gateway error without the server seeing the request (a load balancer's 502/503). */
  | { kind: 'gateway-error'; status: number }
  /** Only the first `bytes` of the body reach the server, then both connections are cut (upload killed mid-PUT). */
  | { kind: 'cut-body'; bytes: number };

export interface NetworkRule {
  fault: NetworkFault;
  method?: string;
  /** Matches the path without query string. */
  path?: string | RegExp;
  /** Only requests with this X-Mutation-Id. */
  mutationId?: number;
  times?: number;
}

/** One write the proxy saw: a request, or one entry of a batch request. */
export interface ProxiedRequest {
  method: string;
  path: string;
  mutationId: number | undefined;
  fault: NetworkFault['kind'] | undefined;
}

export interface FaultProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Offline: every connection is reset before anything is read. */
  offline: boolean;
  readonly log: ProxiedRequest[];
  inject(rule: NetworkRule): void;
  clear(): void;
  /** Points the proxy at another server (a restarted one, on a new port). */
  retarget(targetUrl: string): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

type Write = Omit<ProxiedRequest, 'fault'>;

/**
 * What a request carries: itself, or the entries of a `POST /api/sync/batch` — a fault aimed at one write hits the
 * request that carries it, as the network would, and the log shows each write.
 */
function writesOf(method: string, path: string, mutationHeader: string | string[] | undefined, body: Buffer): Write[] {
  if (method === 'POST' && path === '/api/sync/batch') {
    const { mutations } = JSON.parse(body.toString('utf8')) as SyncBatchRequest;
    return mutations.map((entry) => ({ method: entry.method, path: entry.path.split('?')[0]!, mutationId: entry.mutationId }));
  }
  return [{ method, path, mutationId: typeof mutationHeader === 'string' ? Number(mutationHeader) : undefined }];
}

export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  let target = new URL(targetUrl);
  const rules: (NetworkRule & { remaining: number })[] = [];
  const log: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  /** The first armed rule that matches one of the writes the request carries (a batch carries several). */
  const take = (writes: Write[]) => {
    const rule = rules.find(
      (r) =>
        r.remaining > 0 &&
        writes.some(
          ({ method, path, mutationId }) =>
            (r.method === undefined || r.method === method) &&
            (r.mutationId === undefined || r.mutationId === mutationId) &&
            (r.path === undefined || (typeof r.path === 'string' ? r.path === path : r.path.test(path))),
        ),
    );
    if (rule) rule.remaining -= 1;
    return rule?.fault;
  };

  function forward(incoming: IncomingMessage, body: Buffer, cutAfter?: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers = { ...incoming.headers, host: target.host };
      const outgoing = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers, agent: false }, (response) => {
        readAll(response).then((answer) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: answer }), reject);
      });
      outgoing.on('error', reject);
      if (cutAfter === undefined) {
        outgoing.end(body);
        return;
      }
      outgoing.write(body.subarray(0, cutAfter), () => setTimeout(() => outgoing.destroy(new Error('cut by the proxy')), 20));
    });
  }

  function reply(res: ServerResponse, answer: Answer): void {
    const { 'transfer-encoding': _te, connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length), connection: 'close' });
    res.end(answer.body);
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      const writes = writesOf(method, path, req.headers['x-mutation-id'], body);
      const fault = take(writes);
      for (const write of writes) log.push({ ...write, fault: fault?.kind });
      try {
        switch (fault?.kind) {
          case 'drop-request':
            req.socket.destroy();
            return;
          case 'gateway-error':
            reply(res, { status: fault.status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ statusCode: fault.status, error: 'Bad Gateway', message: 'injected by the test proxy' })) });
            return;
          case 'cut-body':
            await forward(req, body, fault.bytes).catch(() => undefined);
            req.socket.destroy();
            return;
          case 'drop-response':
            await forward(req, body);
            req.socket.destroy();
            return;
          case 'duplicate': {
            const first = await forward(req, body);
            await forward(req, body);
            reply(res, first);
            return;
          }
          case 'delay-response': {
            const answer = await forward(req, body);
            await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
            reply(res, answer);
            return;
          }
          default:
            reply(res, await forward(req, body));
        }
      } catch {
        req.socket.destroy();
      }
    })();
  });

  const proxy: FaultProxy = {
    url: '',
    offline: false,
    log,
    inject: (rule) => void rules.push({ ...rule, remaining: rule.times ?? 1 }),
    clear: () => {
      rules.length = 0;
      log.length = 0;
    },
    retarget: (url) => {
      target = new URL(url);
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  server.on('connection', (socket) => {
    if (proxy.offline) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (proxy as { url: string }).url = `http://127.0.0.1:${port}`;
  return proxy;
}
