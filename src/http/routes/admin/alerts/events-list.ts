import { AppError } from '../../../../errors/app-error.js';
import { parseRfc3339 } from '../../../../platform/rfc3339.js';
import { defineRoute } from '../../../route-def.js';
import { decodeCursor, encodeCursor, presentEvent } from '../../../presenters/alerts.js';
import { AlertEventPageSchema, AlertEventQuerySchema } from '../../../../protocol/api/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

export const EVENTS_DEFAULT_LIMIT = 200;
export const EVENTS_MAX_LIMIT = 500;

const bad = (message: string): never => {
  throw new AppError('invalid_request', message);
};

function time(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  return parseRfc3339(text) ?? bad(`${name} must be an RFC 3339 time`);
}

/**
 * GET /api/admin/alerts/events/ — alert records, latest trigger first, keyset-paged so new
 * events never shift a page already read. `limit` above 500 is clamped (reference §8.7).
 */
export function adminAlertEventsListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/events/',
    aliases: ['/api/admin/alerts/events'],
    auth: 'admin',
    schema: { querystring: AlertEventQuerySchema, response: { 200: AlertEventPageSchema } },
    handler: async (req) => {
      const q = req.query;
      const status = q.status ?? 'open';
      if (status !== 'open' && status !== 'closed' && status !== 'all')
        bad('status must be open, closed or all');
      let nodeId: number | undefined;
      if (q.server_id !== undefined) {
        if (!/^[1-9]\d{0,15}$/.test(q.server_id)) bad('server_id must be a positive integer');
        nodeId = Number(q.server_id);
      }
      let limit = EVENTS_DEFAULT_LIMIT;
      if (q.limit !== undefined) {
        if (!/^\d{1,10}$/.test(q.limit) || Number(q.limit) <= 0)
          bad('limit must be a positive integer');
        limit = Math.min(Number(q.limit), EVENTS_MAX_LIMIT);
      }
      const from = time(q.from, 'from');
      const to = time(q.to, 'to');
      if (from !== undefined && to !== undefined && from > to) bad('from is after to');
      const rows = await deps.alerts.events({
        status: status as 'open' | 'closed' | 'all',
        ...(nodeId !== undefined ? { nodeId } : {}),
        ...(q.metric !== undefined && q.metric !== '' ? { metric: q.metric } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        ...(q.cursor !== undefined ? { after: decodeCursor(q.cursor) } : {}),
        limit: limit + 1,
      });
      const hasMore = rows.length > limit;
      const page = hasMore ? rows.slice(0, limit) : rows;
      return {
        items: page.map(presentEvent),
        next_cursor: hasMore ? encodeCursor(page.at(-1)!) : null,
        has_more: hasMore,
      };
    },
  });
}
