/** Same-origin JSON calls to the service. State-changing calls carry the session's CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The service's Retry-After, in seconds, when it sent one (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Retry-After as seconds from now: either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

let csrfToken: string | undefined;
let onUnauthorised: (() => void) | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when a call other than login/me answers 401: the session has ended. */
export function setUnauthorisedHandler(handler: (() => void) | undefined): void {
  onUnauthorised = handler;
}

export interface RequestOptions {
  signal?: AbortSignal;
  accept?: string;
  /** Do not treat 401 as an ended session (login and session probes). */
  isSessionProbe?: boolean;
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string' && body.error) return body.error;
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON: fall through to the status text
  }
  return response.statusText || `Request failed with status ${response.status}`;
}

export async function request(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!response.ok) {
    const message = await errorMessage(response);
    if (response.status === 401 && !options.isSessionProbe) onUnauthorised?.();
    throw new ApiError(response.status, message, parseRetryAfter(response.headers.get('retry-after')));
  }
  return response;
}

export async function postJson<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  const response = await request('POST', path, body ?? {}, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function getJson<T>(path: string, options?: RequestOptions): Promise<T> {
  const response = await request('GET', path, undefined, options);
  return (await response.json()) as T;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
