import type { IncomingMessage } from 'node:http';
import { AGENT_RUNTIME } from '../build-info.js';

/** Reference agent timeouts (§1.7): 5 s to connect, 10 s for the whole exchange. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;

/** The request never produced an HTTP response (DNS, refused, TLS, timeout). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  get timedOut(): boolean {
    return this.code === 'ETIMEDOUT';
  }
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Deadline for the whole exchange, body included; REQUEST_TIMEOUT_MS by default. */
  timeoutMs?: number;
}

/** A response whose head has arrived; its body is read once, or discarded. */
export interface OpenResponse {
  status: number;
  /** A response header (lower-case name), undefined when absent. */
  header(name: string): string | undefined;
  /** The body as it arrives; a failure or the deadline ends it with a TransportError. */
  body: AsyncIterable<Uint8Array>;
  /** The whole (small) body instead, cut off after `limit` bytes. */
  read(limit: number): Promise<Buffer>;
  /** Stops reading; the connection is not reused. */
  discard(): void;
}

/** Sends one request; rejects with a TransportError when no response head arrives. */
export type Transport = (url: URL, opts: RequestOptions) => Promise<OpenResponse>;

const asTransportError = (err: unknown): TransportError => {
  if (err instanceof TransportError) return err;
  const e = err as {
    message?: string;
    code?: unknown;
    cause?: { message?: string; code?: unknown };
  };
  // Node's fetch wraps the socket error ("fetch failed") and keeps the useful part in `cause`.
  const code = typeof e.code === 'string' ? e.code : e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  return new TransportError(message, typeof code === 'string' ? code : 'EIO');
};

/**
 * Requests through the runtime's fetch(). In the standalone (Bun) build this is the native HTTP
 * client: Bun's node:http is a JavaScript layer over it that, once loaded, keeps about 2 MiB
 * more of the agent resident (bench/agent). fetch has no connect deadline of its own, so the
 * connect phase is bounded by the overall deadline. Redirects are not followed (as node:http).
 */
export const fetchTransport: Transport = async (url, opts) => {
  const abort = new AbortController();
  let timedOut = false;
  let discarded = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const fail = (err: unknown): TransportError =>
    timedOut ? new TransportError('request timed out', 'ETIMEDOUT') : asTransportError(err);
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method,
      headers: opts.headers,
      ...(opts.body ? { body: opts.body } : {}),
      signal: abort.signal,
      redirect: 'manual',
    });
  } catch (err) {
    clearTimeout(timer);
    throw fail(err);
  }
  const body = (async function* () {
    try {
      // res.body is touched only here: creating the stream is what loads Bun's web streams.
      const stream = res.body;
      if (stream) for await (const chunk of stream) yield chunk;
    } catch (err) {
      // Reading stops quietly once the reader has discarded the rest.
      if (!discarded) throw fail(err);
    } finally {
      clearTimeout(timer);
    }
  })();
  const discard = (): void => {
    discarded = true;
    clearTimeout(timer);
    abort.abort();
  };
  return {
    status: res.status,
    header: (name) => res.headers.get(name) ?? undefined,
    body,
    async read(limit) {
      // A body of announced length within the limit is read whole, natively: iterating the
      // stream would load Bun's JavaScript web-streams code (about 1.5 MiB more resident).
      const length = Number(res.headers.get('content-length') ?? NaN);
      if (!(length <= limit)) return readChunks(body, limit, discard);
      try {
        return Buffer.from(await res.arrayBuffer());
      } catch (err) {
        throw fail(err);
      } finally {
        clearTimeout(timer);
      }
    },
    discard,
  };
};

/** Collects chunks up to `limit` bytes; past it the rest is discarded, not an error. */
export async function readChunks(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  discard: () => void,
): Promise<Buffer> {
  const kept: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > limit) {
      discard();
      break;
    }
    kept.push(chunk);
  }
  return Buffer.concat(kept);
}

type NodeHttp = typeof import('node:http');
type NodeHttps = typeof import('node:https');
let pools: { http: import('node:http').Agent; https: import('node:https').Agent } | undefined;

/** node:http and node:https, loaded on first use so that the standalone build never loads them. */
function nodeModules(): { http: NodeHttp; https: NodeHttps; pools: NonNullable<typeof pools> } {
  const http = process.getBuiltinModule('node:http');
  const https = process.getBuiltinModule('node:https');
  // One keep-alive pool per scheme: a report every 3 s must not pay a handshake each time.
  pools ??= {
    http: new http.Agent({ keepAlive: true, maxSockets: 4, maxFreeSockets: 2 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 4, maxFreeSockets: 2 }),
  };
  return { http, https, pools };
}

/** Requests through node:http(s), with the separate 5 s connect deadline (the JS build on Node). */
export const nodeTransport: Transport = (url, opts) =>
  new Promise((resolve, reject) => {
    const { http, https, pools: agents } = nodeModules();
    const secure = url.protocol === 'https:';
    const req = (secure ? https.request : http.request)(url, {
      method: opts.method,
      headers: {
        ...opts.headers,
        ...(opts.body ? { 'Content-Length': String(opts.body.length) } : {}),
      },
      agent: secure ? agents.https : agents.http,
    });
    const fail = (err: Error): void => {
      clearTimeout(overall);
      clearTimeout(connect);
      reject(asTransportError(err));
    };
    let response: IncomingMessage | undefined;
    const overall = setTimeout(() => {
      // Once the head is in, the body stream is what must end with the timeout.
      (response ?? req).destroy(new TransportError('request timed out', 'ETIMEDOUT'));
    }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const connect = setTimeout(() => {
      req.destroy(new TransportError('connect timed out', 'ETIMEDOUT'));
    }, CONNECT_TIMEOUT_MS);
    req.on('socket', (socket) => {
      // A pooled socket is already connected; a new one clears the timer once it is.
      if (!socket.connecting) clearTimeout(connect);
      else socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connect));
    });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      response = res;
      clearTimeout(connect);
      res.on('close', () => clearTimeout(overall));
      const body = (async function* () {
        try {
          for await (const chunk of res) yield chunk as Buffer;
        } catch (err) {
          throw asTransportError(err);
        } finally {
          clearTimeout(overall);
        }
      })();
      const discard = (): void => {
        clearTimeout(overall);
        res.destroy();
      };
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const v = res.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        body,
        read: (limit) => readChunks(body, limit, discard),
        discard,
      });
    });
    req.end(opts.body);
  });

/** The transport of this runtime: Bun's native fetch in the standalone build, node:http on Node. */
export const defaultTransport: Transport =
  AGENT_RUNTIME === 'standalone' ? fetchTransport : nodeTransport;
