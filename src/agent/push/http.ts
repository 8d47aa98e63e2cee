import { AGENT_USER_AGENT } from '../build-info.js';
import { defaultTransport, type Transport } from './transport.js';

export {
  CONNECT_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  TransportError,
  type OpenResponse,
  type Transport,
} from './transport.js';

/** Only the update manifest is read from a response; nothing legitimate comes near this. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface HttpResponse {
  status: number;
  contentType: string;
  /**
   * The response's Accept-Encoding (RFC 7694 §3): the content codings the server takes in
   * request bodies. Undefined when the server did not say.
   */
  acceptEncoding?: string | undefined;
  body: Buffer;
}

export interface PostOptions {
  /** Send the body gzip-compressed (only to a server that said it accepts gzip). */
  gzip?: boolean;
  transport?: Transport;
}

type GzipSync = (data: Uint8Array) => Uint8Array;

let gzipSync: GzipSync | undefined;
/**
 * Bun's native gzip in the standalone build (node:zlib there is a JavaScript module that would
 * stay loaded), node:zlib on Node. Both write a plain RFC 1952 gzip stream.
 */
function gzipper(): GzipSync {
  const bun = (globalThis as { Bun?: { gzipSync?: GzipSync } }).Bun;
  gzipSync ??= bun?.gzipSync
    ? (data) => bun.gzipSync!(data)
    : (data) => process.getBuiltinModule('node:zlib').gzipSync(data);
  return gzipSync;
}

/** POSTs a JSON document with the node secret and returns status, media type and body. */
export async function postJson(
  url: URL,
  secret: string,
  payload: unknown,
  opts: PostOptions = {},
): Promise<HttpResponse> {
  const json = Buffer.from(JSON.stringify(payload));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Node-Secret': secret,
    'User-Agent': AGENT_USER_AGENT,
  };
  if (opts.gzip) headers['Content-Encoding'] = 'gzip';
  const res = await (opts.transport ?? defaultTransport)(url, {
    method: 'POST',
    headers,
    body: opts.gzip ? gzipper()(json) : json,
  });
  const body = await res.read(MAX_RESPONSE_BYTES);
  return {
    status: res.status,
    contentType: res.header('content-type') ?? '',
    acceptEncoding: res.header('accept-encoding'),
    body,
  };
}

/** True when an Accept-Encoding value lists gzip with a non-zero weight. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((item) => {
    const [coding, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** True for application/json with or without parameters (charset and the like). */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
