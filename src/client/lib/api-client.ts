/**
 * HTTP client for the Anlagenbuch API (ky underneath). Every call gets the current access token as a bearer
 * header, built at send time. On a 401 the client refreshes the token pair ONCE — one refresh shared by every
 * call that is waiting on it — and retries the failed call once with the new token. If the refresh token itself
 * is rejected, the session ends (the app then shows the login with "Sitzung abgelaufen").
 * A refresh that fails for lack of network does NOT end the session: technicians work offline for days.
 */
import ky, { type KyInstance } from 'ky';
import type { z } from 'zod';
import { refreshResponseSchema, type DeviceCredentials, type RefreshResponse } from '../../shared/api/auth';

export type ApiErrorKind =
  /** The server answered with a non-2xx status. */
  | 'http'
  /** No answer: offline, DNS, connection refused, timeout. */
  | 'network'
  /** A 2xx answer whose body does not match the contract. */
  | 'invalid-response';

export interface ApiErrorDetail {
  field: string;
  message: string;
}

/** Every failure of an API call, typed. `statusCode` is 0 when there was no HTTP answer. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly statusCode: number;
  /** The server's short error name ("Unauthorized"), when it sent one. */
  readonly error: string | undefined;
  readonly details: ApiErrorDetail[];

  constructor(init: { kind: ApiErrorKind; statusCode: number; message: string; error?: string; details?: ApiErrorDetail[]; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.statusCode = init.statusCode;
    this.error = init.error;
    this.details = init.details ?? [];
  }

  get isNetworkError(): boolean {
    return this.kind === 'network';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Where the client reads and writes the token pair; the session store implements it in the app. */
export interface TokenSource {
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  setTokens(pair: RefreshResponse): void | Promise<void>;
  /** The refresh token was rejected: end the session locally. */
  endSession(): void | Promise<void>;
  /** Re-read tokens another tab may have refreshed meanwhile (optional). */
  reload?(): Promise<void>;
  /** Run the refresh exclusively across tabs, e.g. with the Web Locks API (optional). */
  withRefreshLock?<T>(run: () => Promise<T>): Promise<T>;
  /** This device's client id and secret, sent with every refresh: the server lets only the bound device refresh (optional). */
  getDevice?(): Promise<DeviceCredentials>;
}

type SearchParams = Record<string, string | number | boolean>;

export interface RequestOptions<T> {
  json?: unknown;
  searchParams?: SearchParams;
  /** Validates the response body; the result is typed from it. */
  schema?: z.ZodType<T>;
  /** Default true: send the bearer token and refresh on 401. False for login and other anonymous calls. */
  auth?: boolean;
  /** Extra headers (the bearer header of `auth` wins). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (ms). */
  timeout?: number;
  /**
   * The access token another thread already got a 401 for with this request (a prepared request's `bearer`): while
   * it is still the current one, the client refreshes before it sends, instead of sending it once more to learn so.
   */
  rejectedToken?: string;
}

export interface ApiClient {
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  put<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  /**
   * The outbox sender's call: bearer + the same single-flight refresh on 401 (retried once), but the Response is
   * returned whatever its status, because the sender decides per status (replay, 409, dead letter, backoff).
   * Throws ApiError `network` when there is no answer (also when an offline refresh fails).
   */
  send(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: Omit<RequestOptions<never>, 'schema'>): Promise<Response>;
  /**
   * A GET for another thread to send (the pull page worker): its absolute URL, its headers with the current bearer,
   * and the client's timeout. Nothing is sent; an answer that is not OK is asked again with `send`, which refreshes
   * (at once, given the 401's token as `rejectedToken`).
   */
  prepare(path: string, options?: Pick<RequestOptions<never>, 'searchParams' | 'headers'>): PreparedRequest;
}

export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The access token in `headers` (null without one): `rejectedToken` when the answer was a 401. */
  bearer: string | null;
}

export interface ApiClientConfig {
  /** '/api' in the browser; an absolute URL in tests. */
  baseUrl: string;
  tokens: TokenSource;
  /** Default 30 s. */
  timeout?: number;
  fetch?: typeof fetch;
}

export const REFRESH_PATH = 'object/refresh-token';

/** How long a request waits for its answer's headers unless the client is configured otherwise. */
const DEFAULT_TIMEOUT_MS = 30_000;

export function createApiClient(config: ApiClientConfig): ApiClient {
  const { tokens } = config;
  const timeoutMs = config.timeout ?? DEFAULT_TIMEOUT_MS;
  const http: KyInstance = ky.create({
    prefixUrl: config.baseUrl,
    // why: retries and error throwing are decided here, not by ky (a 401 is not a failure to retry blindly).
    retry: 0,
    throwHttpErrors: false,
    timeout: timeoutMs,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });

  let refreshInFlight: Promise<string | null> | null = null;

  async function send(method: string, path: string, options: RequestOptions<unknown>, token: string | null): Promise<Response> {
    try {
      return await http(path.replace(/^\/+/, ''), {
        method,
        json: options.json,
        searchParams: options.searchParams,
        headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: options.signal,
        ...(options.timeout ? { timeout: options.timeout } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError({ kind: 'network', statusCode: 0, message: cause instanceof Error ? cause.message : 'Network error', cause });
    }
  }

  /** Resolves to the new access token, or null when the session has ended. Throws ApiError when offline. */
  async function runRefresh(failedToken: string): Promise<string | null> {
    await tokens.reload?.();
    const current = tokens.getAccessToken();
    // Another tab (or an earlier refresh in this one) already replaced the token that failed.
    if (current && current !== failedToken) return current;
    const refreshToken = tokens.getRefreshToken();
    if (!refreshToken) {
      await tokens.endSession();
      return null;
    }
    // why no failure on a missing device: without IndexedDB the refresh still works, only without the grace retry.
    const device = await tokens.getDevice?.().catch(() => undefined);
    const response = await send('POST', REFRESH_PATH, { json: { token: refreshToken, ...device } }, null);
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      await tokens.endSession();
      return null;
    }
    if (!response.ok) throw await toApiError(response);
    const pair = await parseBody(response, refreshResponseSchema);
    await tokens.setTokens(pair);
    return pair.accesstoken;
  }

  function refreshOnce(failedToken: string): Promise<string | null> {
    const current = tokens.getAccessToken();
    if (current && current !== failedToken) return Promise.resolve(current);
    if (!refreshInFlight) {
      const run = () => runRefresh(failedToken);
      refreshInFlight = (tokens.withRefreshLock ? tokens.withRefreshLock(run) : run()).finally(() => {
        refreshInFlight = null;
      });
    }
    return refreshInFlight;
  }

  /** Sends with the bearer; on 401 refreshes once and retries once. The Response of the last attempt, any status. */
  async function sendWithRefresh(method: string, path: string, options: RequestOptions<unknown>): Promise<Response> {
    const auth = options.auth ?? true;
    const current = auth ? tokens.getAccessToken() : null;
    if (current && current === options.rejectedToken) {
      // Answered 401 already (another thread sent it): refresh first; the one retry is this request.
      const fresh = await refreshOnce(current);
      return send(method, path, options, fresh ?? current);
    }
    const response = await send(method, path, options, current);
    if (response.status !== 401 || !current) return response;
    const fresh = await refreshOnce(current);
    if (fresh === null) return response;
    // Exactly one retry: a second 401 is reported as it is, never refreshed again (no loop).
    return send(method, path, options, fresh);
  }

  async function request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const response = await sendWithRefresh(method, path, options as RequestOptions<unknown>);

    if (!response.ok) throw await toApiError(response);
    if (response.status === 204 || response.headers.get('content-length') === '0') return undefined as T;
    return parseBody(response, options.schema);
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    delete: (path, options) => request('DELETE', path, options),
    send: (method, path, options) => sendWithRefresh(method, path, options ?? {}),
    prepare: (path, options = {}) => {
      // The same URL ky builds from prefixUrl, made absolute (a worker resolves relative URLs against its script).
      const url = new URL(`${config.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`, globalThis.location?.href);
      for (const [name, value] of Object.entries(options.searchParams ?? {})) url.searchParams.set(name, String(value));
      const token = tokens.getAccessToken();
      return { url: url.href, headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }, timeoutMs, bearer: token };
    },
  };
}

async function parseBody<T>(response: Response, schema: z.ZodType<T> | undefined): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch (cause) {
    throw new ApiError({ kind: 'invalid-response', statusCode: response.status, message: 'Response is not JSON', cause });
  }
  if (!schema) return body as T;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ kind: 'invalid-response', statusCode: response.status, message: 'Response does not match the contract', cause: parsed.error });
  }
  return parsed.data;
}

/** A failed answer as the typed error: its message, short error name and field details as the server sent them. */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    body = undefined;
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const details = Array.isArray(record.details)
    ? record.details.filter((d): d is ApiErrorDetail => typeof d === 'object' && d !== null && typeof (d as ApiErrorDetail).field === 'string' && typeof (d as ApiErrorDetail).message === 'string')
    : [];
  return new ApiError({
    kind: 'http',
    statusCode: response.status,
    message: typeof record.message === 'string' ? record.message : response.statusText || `HTTP ${response.status}`,
    ...(typeof record.error === 'string' ? { error: record.error } : {}),
    details,
  });
}
