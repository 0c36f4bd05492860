/** Same-origin JSON calls to the service. State-changing calls carry the session's CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The service's Retry-After, in seconds, when it sent one (429). */
    readonly retryAfterSeconds?: number,
    /** The JSON body of the answer, when it had one (e.g. the field a 400 is about). */
    readonly body?: Record<string, unknown>,
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

/** The session's CSRF token, for work done off the page (the CSV export's worker). */
export function csrfTokenOf(): string | undefined {
  return csrfToken;
}

/** Called when a call other than login/me answers 401: the session has ended. */
export function setUnauthorisedHandler(handler: (() => void) | undefined): void {
  onUnauthorised = handler;
}

/** A 401 met off the page (the CSV export's worker): the session has ended. */
export function reportUnauthorised(): void {
  onUnauthorised?.();
}

export interface RequestOptions {
  signal?: AbortSignal;
  accept?: string;
  /** Do not treat 401 as an ended session (login and session probes). */
  isSessionProbe?: boolean;
}

async function errorAnswer(response: Response): Promise<{ message: string; body?: Record<string, unknown> }> {
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: fall through to the status text
  }
  for (const key of ['error', 'message']) {
    const text = body?.[key];
    if (typeof text === 'string' && text) return { message: text, body };
  }
  return { message: response.statusText || `Request failed with status ${response.status}`, body };
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
    const { message, body } = await errorAnswer(response);
    if (response.status === 401 && !options.isSessionProbe) onUnauthorised?.();
    throw new ApiError(response.status, message, parseRetryAfter(response.headers.get('retry-after')), body);
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

/**
 * A multipart POST with upload progress (fetch reports none), answering JSON; failures throw ApiError with the
 * service's own message, as the JSON calls do.
 */
export function postForm<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    if (csrfToken) xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the service could not be reached'));
    xhr.onload = () => {
      let body: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(xhr.responseText);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          body = parsed as Record<string, unknown>;
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      if (xhr.status === 401) onUnauthorised?.();
      const message =
        typeof body?.error === 'string' && body.error ? body.error : xhr.statusText || `Upload failed (${xhr.status})`;
      reject(new ApiError(xhr.status, message, parseRetryAfter(xhr.getResponseHeader('retry-after')), body));
    };
    xhr.send(form);
  });
}
