import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authSyncJob } from '../../../src/jobs/auth-sync.js';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { bearer, login } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

const listSessions = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/sessions/', headers: bearer(token) });

describe('sessions ended by another process (dash set-password)', () => {
  it('stop working once the auth-sync job has run', async () => {
    const { body } = await login(t);
    const token = body!.access_token;
    expect((await listSessions(token)).statusCode).toBe(200);
    // What the CLI's revokeAll leaves in the shared database: a new user version, no sessions.
    // (Read first: setting the start password already bumped it.)
    const stored = Number(
      JSON.parse((await t.deps.store.settings.get('auth.user_version')) ?? '0'),
    );
    await t.deps.store.settings.setMany(
      [['auth.user_version', JSON.stringify(stored + 1)]],
      t.clock.now(),
    );
    await t.deps.store.sessions.deleteAll();
    const job = authSyncJob(t.deps.auth);
    expect(job.nextRunAt(1000)).toBe(11_000);
    await job.runOnce(t.clock.now());
    expect((await listSessions(token)).statusCode).toBe(401);
    // A new login works with the new version.
    const again = await login(t);
    expect((await listSessions(again.body!.access_token)).statusCode).toBe(200);
  });

  it('changes nothing when no other process revoked', async () => {
    const { body } = await login(t);
    expect(await t.deps.auth.syncFromStore()).toBe(false);
    expect((await listSessions(body!.access_token)).statusCode).toBe(200);
  });
});
