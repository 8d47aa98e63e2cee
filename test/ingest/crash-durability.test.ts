import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { tempHome } from '../support/build-app.js';
import { seedNodes } from '../support/seed-home.js';
import { agentReport } from '../support/agent-payloads.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
let child: ChildProcess | undefined;

/** exitCode stays null for a process ended by a signal. */
const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;

afterEach(() => {
  if (child && !exited(child)) child.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

async function waitUp(port: number, proc: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (exited(proc)) throw new Error(`dash exited early: ${output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/version`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dash did not start: ${output()}`);
}

describe('durability under SIGKILL', () => {
  it('keeps every report that was answered 200 when the process is killed under load', async () => {
    const home = tempHome();
    const secrets = await seedNodes(home, 8);
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
      env: {
        ...process.env,
        DASH_HOME: home,
        DASH_LISTEN: `127.0.0.1:${port}`,
        DASH_LOG_LEVEL: 'error',
        DASH_ADMIN_PASSWORD: 'crash-test-password',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const started = Date.now();
    await waitUp(port, child, () => output);
    const startupMs = Date.now() - started;

    // Each report carries a unique memory.used value, stored exactly in its history row.
    const acked: Array<{ node: number; marker: number }> = [];
    let marker = 1_000_000;
    let stop = false;
    const sender = async (worker: number) => {
      while (!stop) {
        const node = worker % secrets.length;
        const report = agentReport({ seq: marker });
        const mine = ++marker;
        report.metrics.memory.used = mine;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/node/metrics`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-node-secret': secrets[node]! },
            body: JSON.stringify(report),
            signal: AbortSignal.timeout(15_000),
          });
          if (res.status === 200) acked.push({ node: node + 1, marker: mine });
          await res.arrayBuffer();
        } catch {
          return; // the server is gone
        }
      }
    };
    // One report end to end first, so the load below runs against a fully started server.
    const first = agentReport();
    const warm = await fetch(`http://127.0.0.1:${port}/api/node/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-node-secret': secrets[0]! },
      body: JSON.stringify(first),
    });
    expect(warm.status).toBe(200);
    const senders = Array.from({ length: 24 }, (_, i) => sender(i));
    // Kill mid-stream once enough reports were acknowledged (bounded for a loaded machine).
    for (let waited = 0; acked.length < 200 && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    await new Promise<void>((resolve) =>
      exited(child!) ? resolve() : child!.once('exit', () => resolve()),
    );

    expect(acked.length, `startup ${startupMs} ms; server output: ${output}`).toBeGreaterThan(50);
    const store = openSqliteStore(join(home, 'dash.db'), Date.now());
    try {
      const stored = new Set(
        (
          store.raw.prepare('SELECT node_id, mem_used FROM metrics_raw').all() as Array<{
            node_id: number;
            mem_used: number;
          }>
        ).map((r) => `${r.node_id}:${r.mem_used}`),
      );
      const lost = acked.filter((a) => !stored.has(`${a.node}:${a.marker}`));
      expect(lost).toEqual([]);
    } finally {
      await store.close();
    }
  }, 150_000);
});
