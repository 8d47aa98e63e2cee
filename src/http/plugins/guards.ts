import type { onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { AppDeps } from '../../deps.js';
import type { AuthGuards } from '../server.js';
import { adminGuard, optionalAdminGuard } from './admin-guard.js';

/** Builds the onRequest guard for each auth mode from the app's services. */
export function buildGuards(deps: AppDeps): AuthGuards {
  const deny: onRequestAsyncHookHandler = async () => {
    throw new AppError('unauthorized');
  };
  return { admin: adminGuard(deps.auth), optional: optionalAdminGuard(deps.auth), node: deny };
}
