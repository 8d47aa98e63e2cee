import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { AppError } from '../../../errors/app-error.js';
import { FrontMetricsCache, type Audience } from './metrics-cache.js';
import { FRONT_METRICS_VARY, snapshotAnswer } from './metrics-answer.js';
import { frontMetricsLane } from './metrics-lane.js';
import '../../request-context.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth' | 'clock' | 'front'>;

const MAX_LIMIT = 1000;
const MAX_OFFSET = 100_000;

function parseCount(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new AppError('invalid_request', `${name} must be an integer ≥ ${min}`);
  }
  return Number(raw);
}

function send(reply: FastifyReply, body: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * GET /api/front/metrics — the front view of every node that has reported, guests seeing only
 * guest-visible ones; optional paging with limit (≤ 1000) and offset. Served from a
 * pre-compressed snapshot with an ETag; the dashboard's poll (no query) by the fast lane beside
 * this file, from the same cache.
 */
export function frontMetricsRoute(
  deps: Deps,
  cache = new FrontMetricsCache(deps.front, deps.clock),
) {
  return defineRoute({
    method: 'GET',
    path: '/api/front/metrics',
    auth: 'optional',
    lane: frontMetricsLane(cache, deps.auth),
    errors: ['invalid_request'],
    schema: {
      querystring: Type.Object({
        limit: Type.Optional(Type.String()),
        offset: Type.Optional(Type.String()),
      }),
    },
    handler: async (req, reply) => {
      const audience: Audience = req.adminSessionId !== undefined ? 'admin' : 'guest';
      const limit = parseCount('limit', req.query.limit, 1);
      const offset = parseCount('offset', req.query.offset, 0);
      if (offset !== undefined && limit === undefined) {
        throw new AppError('invalid_request', 'offset needs limit');
      }
      if (limit !== undefined) {
        void reply.header('vary', FRONT_METRICS_VARY);
        return send(
          reply,
          await cache.page(audience, Math.min(offset ?? 0, MAX_OFFSET), Math.min(limit, MAX_LIMIT)),
        );
      }
      const answer = snapshotAnswer(
        await cache.get(audience),
        req.headers['if-none-match'],
        req.headers['accept-encoding'],
      );
      void reply.headers(answer.headers);
      if (answer.body === undefined) return reply.code(304).send();
      return send(reply, answer.body);
    },
  });
}
