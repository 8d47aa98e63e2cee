import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../support/build-app.js';
import { freshSchema, postgresUnavailable, warnPostgresSkipped } from '../support/postgres.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

function dash(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('dash on a PostgreSQL URL', () => {
  it('refuses to serve, naming what is not supported yet', () => {
    const r = dash(['serve'], {
      DASH_HOME: tempHome(),
      DASH_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('serving on PostgreSQL is not supported yet');
    expect(r.stderr).toContain('traffic accounting');
  });

  it('says which server it could not reach, without the password', () => {
    const r = dash(['migrate'], {
      DASH_HOME: tempHome(),
      DASH_DATABASE_URL: 'postgres://dash:s3cret@127.0.0.1:1/none',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'cannot connect to PostgreSQL at postgres://dash:***@127.0.0.1:1/none',
    );
    expect(r.stderr).not.toContain('s3cret');
  });
});

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) warnPostgresSkipped(unavailable);

describe.skipIf(unavailable !== undefined)('dash migrate on PostgreSQL', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('migrates a fresh schema', async () => {
    const f = await freshSchema();
    drops.push(f.drop);
    const env = { DASH_HOME: tempHome(), DASH_DATABASE_URL: f.url };
    const first = dash(['migrate'], env);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('applied 7 migration(s): 0001_init, 0002_metrics');
  });
});
