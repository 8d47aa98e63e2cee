import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../support/build-app.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations/index.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations/index.js';
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
    expect(r.stderr).toContain('alerts, notification channels');
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
    expect(first.stdout).toContain(
      `applied ${POSTGRES_MIGRATIONS.length} migration(s): 0001_init, 0002_metrics`,
    );
  });

  it('copies a SQLite install with progress and verified counts', async () => {
    const home = tempHome();
    const lite = openSqliteStore(join(home, 'dash.db'), 1);
    await lite.nodes.create({ name: 'web', secretHash: 'h', secretEnc: 'e' }, 1);
    await lite.close();
    const f = await freshSchema();
    drops.push(f.drop);
    const r = dash(['migrate-data', '--from', `sqlite:${join(home, 'dash.db')}`, '--to', f.url], {
      DASH_HOME: home,
    });
    const lacking = SQLITE_MIGRATIONS.filter(
      (m) => !POSTGRES_MIGRATIONS.some((p) => p.id === m.id),
    ).map((m) => m.id);
    // History blocks (0013) are copied as raw rows, so a current SQLite database is accepted.
    expect(lacking).not.toContain('0013_history_blocks');
    if (lacking.length > 0) {
      // SQLite gained a migration PostgreSQL has no counterpart for yet: refused by name.
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(lacking.join(', '));
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  nodes: 1/1 rows');
    expect(r.stdout).toContain('  nodes: 1 → 1 ok');
    expect(r.stdout).toMatch(/done: \d+ tables, \d+ rows/);
  });
});
