import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors/app-error.js';
import { clientAddressKey } from '../../domain/auth/client-network.js';
import type { RateLimit } from '../../domain/auth/rate-limiter.js';
import '../request-context.js';

/**
 * 429 for a client address over its allowance of unknown node secrets, checked before the
 * secret itself so that guessing stays slow even when a guess is right.
 */
export function nodeAuthThrottle(limiter: RateLimit, ip: string): AppError | undefined {
  const key = clientAddressKey(ip);
  if (!limiter.isLimited(key)) return undefined;
  const seconds = Math.max(1, Math.ceil(limiter.retryAfterMs(key) / 1000));
  return new AppError('rate_limited', 'too many unknown node secrets from this address', {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * X-Node-Secret check for node routes (spec §5). Runs first on the request, before the body is
 * read, and stamps the receive time the metrics persistence budget counts from. The secret is
 * looked up in the in-memory index (digest compared in constant time); missing or unknown: 401.
 */
export function nodeGuard(
  deps: Pick<AppDeps, 'clock' | 'nodeSecrets' | 'nodeAuthLimiter'>,
): onRequestAsyncHookHandler {
  return async (req: FastifyRequest) => {
    req.receivedAt = deps.clock.now();
    if (deps.nodeAuthLimiter.active) {
      const throttled = nodeAuthThrottle(deps.nodeAuthLimiter, req.ip);
      if (throttled) throw throttled;
    }
    const secret = req.headers['x-node-secret'];
    const nodeId =
      typeof secret === 'string' && secret !== '' ? deps.nodeSecrets.lookup(secret) : undefined;
    if (nodeId === undefined) {
      // A request without any secret is no guess; a wrong one is.
      if (typeof secret === 'string' && secret !== '') {
        deps.nodeAuthLimiter.hit(clientAddressKey(req.ip));
      }
      throw new AppError('unauthorized', 'missing or unknown node secret');
    }
    req.nodeId = nodeId;
  };
}

/** The node a guarded request belongs to. */
export function nodeOf(req: FastifyRequest): { nodeId: number; receivedAt: number } {
  if (req.nodeId === undefined || req.receivedAt === undefined) {
    throw new AppError('unauthorized', 'missing or unknown node secret');
  }
  return { nodeId: req.nodeId, receivedAt: req.receivedAt };
}
