import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { BUN_VERSION, WINDOWS_BUN_VERSION } from '../../src/deploy/agent-targets.js';
import { buildHostAgent } from '../support/agent-binary.js';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { nodeApi, type ListedNode } from '../http/admin/nodes/helpers.js';

const run = promisify(execFile);

let t: TestApp;
let api: ReturnType<typeof nodeApi>;
const binaries = new Map<string, string>();
let base: string;
let agent: ChildProcess | undefined;

beforeAll(async () => {
  binaries.set(BUN_VERSION, buildHostAgent());
  binaries.set(WINDOWS_BUN_VERSION, buildHostAgent(WINDOWS_BUN_VERSION));
  t = await buildTestApp();
  const admin = await adminHeaders(t);
  api = nodeApi(t, () => admin);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 240_000);
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

// The Windows builds use another Bun release; no Windows host runs here, so this machine's agent
// compiled with that release stands in for them.
describe.each([BUN_VERSION, WINDOWS_BUN_VERSION])(
  "this machine's agent (Bun %s) against a real Dash",
  (bunVersion) => {
    const binaryPath = (): string => binaries.get(bunVersion)!;
    let node: ListedNode;
    beforeAll(async () => {
      node = await api.create();
    });
    it('runs without Node: --version answers the bundled agent version', async () => {
      const r = await run(binaryPath(), ['--version'], { env: { PATH: '/nonexistent' } });
      expect(r.stdout.trim()).toBe(AGENT_VERSION);
    });

    it('registers with report install, then pushes Static and reports', async () => {
      const config = join(tempHome(), 'report.yaml');
      const env = { ...process.env, NODE_REPORT_CONFIG: config };
      const installed = await run(
        binaryPath(),
        ['report', 'install', `${base}/api/node/metrics`, node.secret],
        { env },
      );
      expect(installed.stdout).toMatch(/added target/);
      expect(readFileSync(config, 'utf8')).toContain(node.secret);

      agent = spawn(binaryPath(), ['push', '1'], { env, stdio: 'ignore' });
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
  },
);
