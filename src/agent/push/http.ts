import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AGENT_USER_AGENT } from '../build-info.js';

/** Reference agent timeouts (§1.7): 5 s to connect, 10 s for the whole exchange. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;
/** Only the update manifest is read from a response; nothing legitimate comes near this. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface HttpResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

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

// One keep-alive pool per scheme: a report every 3 s must not pay a TCP and TLS handshake each time.
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 4, maxFreeSockets: 2 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 4, maxFreeSockets: 2 }),
};

export interface RequestOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs?: number;
}

/**
 * Starts a request and resolves with the response head; the caller consumes the body. Connect
 * and overall deadlines both end in a TransportError with code ETIMEDOUT.
 */
export function openRequest(url: URL, opts: RequestOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const req = (secure ? httpsRequest : httpRequest)(url, {
      method: opts.method,
      headers: {
        ...opts.headers,
        ...(opts.body ? { 'Content-Length': String(opts.body.length) } : {}),
      },
      agent: secure ? agents.https : agents.http,
    });
    const fail = (err: Error & { code?: string }): void => {
      clearTimeout(overall);
      clearTimeout(connect);
      reject(
        err instanceof TransportError ? err : new TransportError(err.message, err.code ?? 'EIO'),
      );
    };
    const overall = setTimeout(() => {
      req.destroy(new TransportError('request timed out', 'ETIMEDOUT'));
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
    req.on('response', (res) => {
      clearTimeout(connect);
      res.on('end', () => clearTimeout(overall));
      res.on('close', () => clearTimeout(overall));
      res.on('error', () => clearTimeout(overall));
      resolve(res);
    });
    req.end(opts.body);
  });
}

/** Reads a whole (small) response body; a body over the limit is cut off, not an error. */
function readBody(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      else res.destroy();
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('close', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err: Error & { code?: string }) =>
      reject(new TransportError(err.message, err.code ?? 'EIO')),
    );
  });
}

/** POSTs a JSON document with the node secret and returns status, media type and body. */
export async function postJson(url: URL, secret: string, payload: unknown): Promise<HttpResponse> {
  const res = await openRequest(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Node-Secret': secret,
      'User-Agent': AGENT_USER_AGENT,
    },
    body: Buffer.from(JSON.stringify(payload)),
  });
  const body = await readBody(res);
  return {
    status: res.statusCode ?? 0,
    contentType: String(res.headers['content-type'] ?? ''),
    body,
  };
}

/** True for application/json with or without parameters (charset and the like). */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
