import type { Job } from './scheduler.js';

export const AUTH_SYNC_INTERVAL_MS = 10_000;

/** Lets a running Dash notice sessions ended by `dash set-password`. */
export function authSyncJob(auth: { syncFromStore(): Promise<boolean> }): Job {
  return {
    name: 'auth-sync',
    nextRunAt: (now) => now + AUTH_SYNC_INTERVAL_MS,
    runOnce: async () => {
      await auth.syncFromStore();
    },
  };
}
