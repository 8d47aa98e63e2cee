import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors/app-error.js';
import '../request-context.js';

/**
 * X-Node-Secret check for node routes (spec §5). Runs first on the request, before the body is
 * read, and stamps the receive time the metrics persistence budget counts from. The secret is
 * looked up in the in-memory index (digest compared in constant time); missing or unknown: 401.
 */
export function nodeGuard(deps: Pick<AppDeps, 'clock' | 'nodeSecrets'>): onRequestAsyncHookHandler {
  return async (req: FastifyRequest) => {
    req.receivedAt = deps.clock.now();
    const secret = req.headers['x-node-secret'];
    const nodeId =
      typeof secret === 'string' && secret !== '' ? deps.nodeSecrets.lookup(secret) : undefined;
    if (nodeId === undefined) throw new AppError('unauthorized', 'missing or unknown node secret');
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
