import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { buildHostAgent } from '../support/agent-binary.js';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { nodeApi, type ListedNode } from '../http/admin/nodes/helpers.js';

const run = promisify(execFile);

let t: TestApp;
let api: ReturnType<typeof nodeApi>;
let node: ListedNode;
let binary: string;
let base: string;
let agent: ChildProcess | undefined;

beforeAll(async () => {
  binary = buildHostAgent();
  t = await buildTestApp();
  const admin = await adminHeaders(t);
  api = nodeApi(t, () => admin);
  node = await api.create();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  agent?.kill('SIGTERM');
  await t.close();
});

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("this machine's standalone agent against a real Dash", () => {
  it('runs without Node: --version answers the bundled agent version', async () => {
    const r = await run(binary, ['--version'], { env: { PATH: '/nonexistent' } });
    expect(r.stdout.trim()).toBe(AGENT_VERSION);
  });

  it('registers with report install, then pushes Static and reports', async () => {
    const config = join(tempHome(), 'report.yaml');
    const env = { ...process.env, NODE_REPORT_CONFIG: config };
    const installed = await run(
      binary,
      ['report', 'install', `${base}/api/node/metrics`, node.secret],
      { env },
    );
    expect(installed.stdout).toMatch(/added target/);
    expect(readFileSync(config, 'utf8')).toContain(node.secret);

    agent = spawn(binary, ['push', '1'], { env, stdio: 'ignore' });
    await until('the first report', async () => {
      const n = await api.node(node.id);
      return n?.version.version === AGENT_VERSION && n.hostname !== '';
    });
    const n = (await api.node(node.id))!;
    expect(n.hostname).toBe(hostname());

    const exited = new Promise<number | null>((r) => agent!.once('exit', (code) => r(code)));
    agent.kill('SIGTERM');
    expect(await exited).toBe(0);
    agent = undefined;
  });
});
