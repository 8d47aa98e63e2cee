import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/ingest/dash-process.js';
import { agentReport } from '../support/agent-payloads.js';
import { tempHome } from '../support/build-app.js';
import { seedNodes } from '../support/seed-home.js';

/**
 * What `npm run build` ships (scripts/build-server.mjs): the server bundled into a few ESM
 * files. Built here into a folder inside the package, as dist/ is, without the type check.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const OUT = mkdtempSync(join(cache, 'dash-server-bundle-'));
let dash: ChildProcess | undefined;

beforeAll(() => {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'build-server.mjs'), '--outdir', OUT, '--no-typecheck'],
    { encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  if (dash && dash.exitCode === null) {
    const exited = new Promise((r) => dash!.once('exit', r));
    dash.kill('SIGTERM');
    await exited;
  }
  rmSync(OUT, { recursive: true, force: true });
});

describe('the server bundle', () => {
  it('holds one entry per thread, the rest in shared chunks', () => {
    const js = readdirSync(OUT).filter((f) => f.endsWith('.js'));
    expect(js).toEqual(
      expect.arrayContaining(['main.js', 'ingest-worker.js', 'prepare-worker.js']),
    );
    // Packages are inside the bundle, but native addons stay packages.
    const main = readFileSync(join(OUT, 'main.js'), 'utf8');
    expect(main).not.toMatch(/from ["']fastify["']/);
    expect(readdirSync(OUT).join(' ')).not.toContain('better-sqlite3');
  });

  it('prints the package version', () => {
    const r = spawnSync(process.execPath, [join(OUT, 'main.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('serves, and stores a report through its ingest thread', async () => {
    const home = tempHome();
    const [secret] = await seedNodes(home, 1);
    const port = await freePort();
    let out = '';
    dash = spawn(process.execPath, [join(OUT, 'main.js'), 'serve'], {
      env: {
        ...process.env,
        DASH_HOME: home,
        DASH_LISTEN: `127.0.0.1:${port}`,
        DASH_ADMIN_PASSWORD: 'bundle-test-password-1',
        DASH_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dash.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    dash.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const base = `http://127.0.0.1:${port}`;
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      try {
        const res = await fetch(`${base}/api/node/metrics`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-node-secret': secret! },
          body: JSON.stringify(agentReport({ seq: 1 })),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // not listening yet
      }
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status, out).toBe(200);
    // Answered once committed by the ingest thread: the node's current projection is stored.
    const db = new Database(join(home, 'dash.db'), { readonly: true });
    const row = db.prepare('SELECT node_id FROM node_current').get() as { node_id: number };
    db.close();
    expect(row.node_id).toBe(1);
    rmSync(home, { recursive: true, force: true });
  }, 60_000);
});
