import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { AppDeps } from '../../../deps.js';
import { clientAddressKey } from '../../../domain/auth/client-network.js';
import { ACCEPTS_GZIP_HEADERS, bodyCoding, gunzipBody } from '../../body-encoding.js';
import { jsonHeaders, writeJson } from '../../fast-lane-reply.js';
import { isJsonMediaType } from '../../media-type.js';
import { metricsReply } from '../../presenters/node-metrics.js';
import { NODE_BODY_LIMIT, type FastLane } from '../../route-def.js';
import { errorBody, toAppError } from '../../server.js';

/**
 * The answer to almost every report, `{ok: true, update: null}`, and its headers, built once:
 * the presenter, JSON.stringify, the header object and the length are the same every time.
 */
const NO_UPDATE_BODY = JSON.stringify(metricsReply(null));
const NO_UPDATE_HEADERS = Object.freeze(jsonHeaders(NO_UPDATE_BODY, ACCEPTS_GZIP_HEADERS));

export type LaneDeps = Pick<
  AppDeps,
  'clock' | 'log' | 'nodeSecrets' | 'metricsIngest' | 'nodeUpgrades' | 'nodeAuthLimiter'
>;

/**
 * POST /api/node/metrics without Fastify: the request every node sends every few seconds, so
 * the router, hooks and reply pipeline are a large share of its cost on the HTTP thread. The
 * lane takes only a well-formed request from a known node — exact path, JSON media type, a
 * Content-Length within the limit, no transfer coding, no content coding or gzip — and answers
 * it exactly as the route does (./metrics.ts; tests compare the two). A gzip body is
 * decoded with zlib's asynchronous API (thread pool) under the same limits as the route's.
 * Anything else, including every 401 case and 413/415 before the body is read, is left to the
 * router.
 */
export function nodeMetricsLane(deps: LaneDeps, trustedProxies: readonly string[] = []): FastLane {
  const trust = trustedProxies.length > 0 ? proxyAddr.compile([...trustedProxies]) : undefined;
  const clientIp = (req: IncomingMessage): string | null =>
    (trust ? proxyAddr(req, trust) : req.socket.remoteAddress) ?? null;

  const clientKey = (req: IncomingMessage): string => clientAddressKey(clientIp(req) ?? '');

  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/api/node/metrics') return false;
    const receivedAt = deps.clock.now();
    const h = req.headers;
    const secret = h['x-node-secret'];
    const length = Number(h['content-length']);
    const coding = bodyCoding(h['content-encoding']);
    if (
      typeof secret !== 'string' ||
      secret === '' ||
      !(length > 0 && length <= NODE_BODY_LIMIT) ||
      h['transfer-encoding'] !== undefined ||
      coding === 'unsupported' ||
      !isJsonMediaType(h['content-type'])
    ) {
      return false;
    }
    // An address guessing secrets is answered by the route's guard (429), right or wrong.
    if (deps.nodeAuthLimiter.active && deps.nodeAuthLimiter.isLimited(clientKey(req))) {
      return false;
    }
    const nodeId = deps.nodeSecrets.lookup(secret);
    if (nodeId === undefined) return false;
    deps.nodeUpgrades.agents.observe(nodeId, h['user-agent']);

    // Content-Length is known and enforced by the HTTP parser: read into one exact buffer of
    // its own (never a pool slice), which can then move to the ingest thread without a copy.
    const body = Buffer.allocUnsafeSlow(length);
    let filled = 0;
    // An aborted upload just ends; there is no one left to answer.
    req.on('error', () => {});
    req.on('data', (chunk: Buffer) => {
      filled += chunk.copy(body, filled);
    });
    const answer = (status: number, json: string, headers?: Record<string, string>): void =>
      writeJson(res, status, json, { ...headers, ...ACCEPTS_GZIP_HEADERS });
    const fail = (err: unknown): void => {
      const appErr = toAppError(err, undefined);
      if (appErr.status >= 500) {
        deps.log.error({ err, code: appErr.code, nodeId, receivedAt }, 'request failed');
      }
      answer(appErr.status, errorBody(appErr.code, appErr.message), appErr.headers);
    };
    const ingest = (raw: Buffer): void => {
      deps.metricsIngest
        .accept({
          nodeId,
          receivedAt,
          body: raw.length > 0 ? raw : undefined,
          ip: clientIp(req),
          bodyDisposable: true,
        })
        .then(({ update }) => {
          if (update !== null) return answer(200, JSON.stringify(metricsReply(update)));
          res.writeHead(200, NO_UPDATE_HEADERS);
          res.end(NO_UPDATE_BODY);
        }, fail);
    };
    req.on('end', () => {
      if (coding === 'gzip') gunzipBody(body, NODE_BODY_LIMIT).then(ingest, fail);
      else ingest(body);
    });
    return true;
  };
}
