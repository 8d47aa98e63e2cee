import type { onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { AppDeps } from '../../deps.js';
import type { AuthGuards } from '../server.js';
import { nodeGuard } from './node-guard.js';

/** Builds the preHandler guard for each auth mode from the app's services. */
export function buildGuards(deps: AppDeps): AuthGuards {
  const deny: onRequestAsyncHookHandler = async () => {
    throw new AppError('unauthorized');
  };
  const anonymous: onRequestAsyncHookHandler = async () => {};
  return { admin: deny, node: nodeGuard(deps), optional: anonymous };
}
