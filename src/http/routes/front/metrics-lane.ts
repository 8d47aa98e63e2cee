import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { AuthService } from '../../../domain/auth/auth-service.js';
import type { Audience, FrontMetricsCache } from './metrics-cache.js';
import { snapshotAnswer, type SnapshotAnswer } from './metrics-answer.js';
import { jsonHeaders } from '../../fast-lane-reply.js';
import { bearerTokenOf } from '../../plugins/admin-guard.js';
import type { FastLane } from '../../route-def.js';
import { hasBody } from '../../server.js';

const PATH = '/api/front/metrics';

/**
 * The audience the route's optional guard would settle on, or undefined when only the router
 * should decide: any Authorization header that does not authenticate (malformed, expired,
 * revoked) goes the slow way, so the lane never has to mirror how those are treated.
 */
function audienceOf(req: IncomingMessage, auth: AuthService): Audience | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return 'guest';
  const token = bearerTokenOf(header);
  return token !== undefined && auth.authenticate(token) !== undefined ? 'admin' : undefined;
}

/**
 * Complete wire headers per answer, built once per snapshot: building and validating a fresh
 * header object per request was a measurable share of the lane's cost.
 */
const wireHeadersOf = new WeakMap<SnapshotAnswer, OutgoingHttpHeaders>();

function wireHeaders(answer: SnapshotAnswer): OutgoingHttpHeaders {
  let h = wireHeadersOf.get(answer);
  if (!h) {
    // 304 carries no body, so no type or length, as Fastify sends it.
    h =
      answer.body === undefined
        ? { ...answer.headers, 'cache-control': 'no-store' }
        : jsonHeaders(answer.body, answer.headers);
    wireHeadersOf.set(answer, h);
  }
  return h;
}

/**
 * GET /api/front/metrics without a query string — the dashboard's poll, by far the most frequent
 * request — answered from the shared snapshot cache. Paging, any query, a body, HEAD and
 * unauthenticated tokens are left to the route.
 */
export function frontMetricsLane(cache: FrontMetricsCache, auth: AuthService): FastLane {
  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET' || hasBody(req)) return false;
    const audience = audienceOf(req, auth);
    if (audience === undefined) return false;
    let answer: SnapshotAnswer;
    try {
      const snap = cache.get(audience);
      if (snap instanceof Promise) {
        // The front state must read first (another instance's reports): the route awaits the
        // same read, which this call started, and answers any failure of it.
        snap.catch(() => {});
        return false;
      }
      answer = snapshotAnswer(snap, req.headers['if-none-match'], req.headers['accept-encoding']);
    } catch {
      // Nothing is written yet: the route fails the same way and answers with the error conventions.
      return false;
    }
    res.writeHead(answer.status, wireHeaders(answer));
    res.end(answer.body);
    return true;
  };
}
