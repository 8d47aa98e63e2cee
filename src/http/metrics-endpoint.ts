import { createHash, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { ErrorCode } from '../errors/codes.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { errorBody } from './server.js';

export const METRICS_PATH = '/metrics';
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const digest = (text: string) => createHash('sha256').update(text).digest();

function refuse(reply: FastifyReply, status: number, code: ErrorCode) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(errorBody(code));
}

/**
 * GET /metrics (Prometheus text format): Dash's own health, then every node's current
 * metrics. Answers 404 unless enabled; when enabled, the client must be on the allow-list
 * (when one is set: 403 otherwise) and send the bearer token (when one is set: 401 otherwise).
 */
export function registerMetricsEndpoint(
  app: FastifyInstance,
  telemetry: Telemetry | undefined,
  clock: Clock,
): void {
  if (telemetry) {
    const self = telemetry.self;
    app.addHook('onResponse', (_req, reply, done) => {
      if (reply.statusCode === 503) self.unavailableAnswered();
      done();
    });
  }
  const token = telemetry?.config.token;
  const tokenDigest = token === undefined ? undefined : digest(token);
  const allow = telemetry?.config.allow ?? [];
  const allowed = allow.length > 0 ? proxyAddr.compile(allow) : undefined;

  app.get(METRICS_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    if (!telemetry) return refuse(reply, 404, 'not_found');
    if (allowed && !allowed(req.ip, 0)) return refuse(reply, 403, 'forbidden');
    if (tokenDigest) {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (given === '' || !timingSafeEqual(digest(given), tokenDigest)) {
        void reply.header('www-authenticate', 'Bearer realm="dash-metrics"');
        return refuse(reply, 401, 'unauthorized');
      }
    }
    const own = await telemetry.self.text();
    const nodes = await telemetry.nodes.scrape(clock.now());
    const head = Buffer.from(own.endsWith('\n') ? own : `${own}\n`);
    return reply
      .header('cache-control', 'no-store')
      .type(CONTENT_TYPE)
      .send(Readable.from([head, ...nodes], { objectMode: false }));
  });
}
