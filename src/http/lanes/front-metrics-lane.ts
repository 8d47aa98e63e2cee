import type { IncomingMessage } from 'node:http';
import type { AuthService } from '../../domain/auth/auth-service.js';
import type { Audience, FrontMetricsCache } from '../front-metrics-cache.js';
import { snapshotAnswer } from '../front-metrics-answer.js';
import { writeJson } from '../fast-lane-reply.js';
import { bearerTokenOf } from '../plugins/admin-guard.js';
import { hasBody, type FastLane } from '../server.js';

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
 * GET /api/front/metrics without a query string — the dashboard's poll, by far the most frequent
 * request — answered from the shared snapshot cache. Paging, any query, a body, HEAD and
 * unauthenticated tokens are left to the route.
 */
export function frontMetricsLane(cache: FrontMetricsCache, auth: AuthService): FastLane {
  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET' || hasBody(req)) return false;
    const audience = audienceOf(req, auth);
    if (audience === undefined) return false;
    let answer;
    try {
      answer = snapshotAnswer(
        cache.get(audience),
        req.headers['if-none-match'],
        req.headers['accept-encoding'],
      );
    } catch {
      // Nothing is written yet: the route fails the same way and answers with the error conventions.
      return false;
    }
    if (answer.body === undefined) {
      res.writeHead(304, { ...answer.headers, 'cache-control': 'no-store' });
      res.end();
    } else {
      writeJson(res, 200, answer.body, answer.headers);
    }
    return true;
  };
}
