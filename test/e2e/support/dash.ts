import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

export interface RunningDash {
  url: string;
  password: string;
  /** DASH_HOME of a real Dash (its database is `dash.db` there); absent for the fake. */
  home?: string;
  /** `performance.now()` just before the process was spawned (real Dash only). */
  spawnedAt?: number;
  /** Everything the process printed, for failure reports. */
  output(): string;
  stop(): Promise<void>;
}

/** A free loopback port (bound then released). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dash exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/version/`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`dash did not answer within 30 s:\n${log()}`);
}

/**
 * Starts the built Dash (`node dist/main.js serve`) on a temp home and a free port; with
 * `localAgent`, like `make run`, its bundled agent reports this host from the start.
 */
export async function startDash(
  opts: { localAgent?: boolean; env?: Record<string, string> } = {},
): Promise<RunningDash> {
  const main = join(REPO_ROOT, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error('dist/main.js is missing: run `make build` first');
  if (!existsSync(join(REPO_ROOT, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: run `make web-build` first');
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const password = 'e2e-Admin-Password-1';
  const home = mkdtempSync(join(tmpdir(), 'dash-e2e-'));
  let out = '';
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [main, 'serve'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DASH_HOME: home,
      DASH_ADMIN_PASSWORD: password,
      DASH_LISTEN: `127.0.0.1:${port}`,
      DASH_PUBLIC_URL: url,
      DASH_TIMEZONE: 'UTC',
      DASH_LOG_LEVEL: 'warn',
      DASH_LOCAL_AGENT: opts.localAgent ? 'true' : 'false',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await waitReady(url, child, () => out);
  return {
    url,
    password,
    home,
    spawnedAt,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
