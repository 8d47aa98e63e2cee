/**
 * The one place the SPA talks HTTP: JSON in and out, `{code, message}` errors turned into
 * ApiError, the in-memory access token attached, and a single silent refresh on 401.
 */

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** No answer at all (network down, timeout): shown differently from an API error. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Abort after this many milliseconds (front metrics uses 3 s). */
  timeoutMs?: number;
  /** Send the bearer token when one is held (default true). */
  auth?: boolean;
  /** Extra headers, e.g. X-CSRF-Token for the refresh cookie routes. */
  headers?: Record<string, string>;
  /** On 401, refresh the session and retry once (default true when auth is on). */
  retryOn401?: boolean;
}

export interface TokenSource {
  token(): string | null;
  /** Gets a fresh access token, or null when the session is gone. */
  refresh(): Promise<string | null>;
}

const guest: TokenSource = { token: () => null, refresh: () => Promise.resolve(null) };
let tokens: TokenSource = guest;

/** Installed by the auth store; tests install their own. */
export function setTokenSource(source: TokenSource | null): void {
  tokens = source ?? guest;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
  const signals: AbortSignal[] = [];
  if (signal) signals.push(signal);
  if (timeoutMs) signals.push(AbortSignal.timeout(timeoutMs));
  if (signals.length === 0) return undefined;
  return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
}

/**
 * What an error answer is probed for: the body may be anything (a proxy's page, an empty body),
 * so each field is checked before use.
 */
interface ErrorProbe {
  code?: unknown;
  message?: unknown;
}

/** One XMLHttpRequest's outcome, before it is read like a fetch response. */
interface XhrAnswer {
  status: number;
  body: string;
  type: string;
}

async function toApiError(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = res.statusText || `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as ErrorProbe;
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON (a proxy page, an empty body): keep the status-derived code.
  }
  return new ApiError(res.status, code, message);
}

async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: combineSignals(opts.signal, opts.timeoutMs),
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new NetworkError(err instanceof Error ? err.message : String(err));
  }
}

async function readBody<T>(res: Response): Promise<T> {
  if (res.status === 204 || res.status === 202) {
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) return (await res.text()) as T;
  return (await res.json()) as T;
}

/** Performs one API call and returns the decoded body (undefined for 204). */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const useAuth = opts.auth ?? true;
  const token = useAuth ? tokens.token() : null;
  let res = await send(path, opts, token);
  if (res.status === 401 && useAuth && token && (opts.retryOn401 ?? true)) {
    const fresh = await tokens.refresh();
    if (fresh) res = await send(path, opts, fresh);
  }
  if (!res.ok) throw await toApiError(res);
  return readBody<T>(res);
}

/** Reads a cookie the server made readable on purpose (the CSRF token). */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Sends a form (a file upload) with upload progress, which fetch cannot report. Same contract
 * as request(): bearer token, one refresh on 401, `{code, message}` errors as ApiError.
 */
export async function uploadForm<T>(
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  const once = (token: string | null) =>
    new Promise<XhrAnswer>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', path);
      xhr.setRequestHeader('accept', 'application/json');
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
      };
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          body: xhr.responseText,
          type: xhr.getResponseHeader('content-type') ?? '',
        });
      xhr.onerror = () => reject(new NetworkError('upload failed'));
      xhr.send(form);
    });
  const token = tokens.token();
  let res = await once(token);
  if (res.status === 401 && token) {
    const fresh = await tokens.refresh();
    if (fresh) res = await once(fresh);
  }
  if (res.status < 200 || res.status > 299) {
    let code = `http_${res.status}`;
    let message = `HTTP ${res.status}`;
    try {
      const body = JSON.parse(res.body) as ErrorProbe;
      if (typeof body.code === 'string') code = body.code;
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // Not JSON: keep the status-derived code.
    }
    throw new ApiError(res.status, code, message);
  }
  return (res.type.includes('json') && res.body ? JSON.parse(res.body) : undefined) as T;
}
