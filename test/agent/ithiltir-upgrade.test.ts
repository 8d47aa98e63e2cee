import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { hostAgentTarget } from '../../src/deploy/agent-targets.js';
import { buildHostAgent } from '../support/agent-binary.js';
import { agentReport } from '../support/agent-payloads.js';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { setReported } from '../support/fleet.js';
import { nodeApi, type ListedNode } from '../http/admin/nodes/helpers.js';

/**
 * Stands in for Ithiltir-node 0.2.5 and does what its self-update does (reference §1.7/§1.8):
 * reports with the key from its report.yaml, and when the answer carries a manifest downloads the
 * URL as given (no secret: the upgrade_token authorises it), checks size and SHA-256, writes
 * releases/<version>/ithiltir-node, re-points `current` (absolute target) by renaming a new link
 * over it, and hands over to the new binary (here: exits; the supervisor below restarts it).
 */
function fakeIthiltirNode(report: unknown): string {
  return `#!/usr/bin/env node
const fs = require('fs'), path = require('path'), crypto = require('crypto');
const home = process.env.ITHILTIR_NODE_HOME;
const yaml = fs.readFileSync(path.join(home, 'report.yaml'), 'utf8');
const url = /url: (\\S+)/.exec(yaml)[1], key = /key: (\\S+)/.exec(yaml)[1];
const report = ${JSON.stringify(report)};
async function tick() {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(report),
    headers: { 'X-Node-Secret': key, 'Content-Type': 'application/json', 'User-Agent': 'Go-http-client/1.1' } });
  const doc = await res.json().catch(() => ({}));
  const m = doc.update;
  if (!m) return;
  const body = Buffer.from(await (await fetch(m.url)).arrayBuffer());
  if (body.length !== m.size || crypto.createHash('sha256').update(body).digest('hex') !== m.sha256) return;
  const dir = path.join(home, 'releases', m.version);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.new'), body, { mode: 0o755 });
  fs.renameSync(path.join(dir, '.new'), path.join(dir, 'ithiltir-node'));
  fs.symlinkSync(dir, path.join(home, '.current.tmp'));
  fs.renameSync(path.join(home, '.current.tmp'), path.join(home, 'current'));
  process.exit(0);
}
(async () => {
  for (;;) {
    await tick().catch((e) => fs.appendFileSync(path.join(home, 'fake.log'), String(e) + '\\n'));
    await new Promise((r) => setTimeout(r, 100));
  }
})();
`;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

let t: TestApp;
let node: ListedNode;
let api: ReturnType<typeof nodeApi>;
let home: string;
let base: string;
let child: ChildProcess | undefined;
let stopped = false;
const starts: string[] = [];

/** Restarts `current/ithiltir-node push 1` whenever it exits, like its systemd unit (Restart=always). */
function supervise(): void {
  if (stopped) return;
  const exe = join(home, 'current', 'ithiltir-node');
  starts.push(readlinkSync(join(home, 'current')));
  child = spawn(exe, ['push', '1'], {
    env: { ...process.env, ITHILTIR_NODE_HOME: home, NODE_REPORT_CONFIG: '' },
    stdio: 'ignore',
  });
  child.once('exit', () => setTimeout(supervise, 50));
}

beforeAll(async () => {
  const binary = buildHostAgent();
  // Upgrade manifests carry the public URL, so Dash must know its port before it starts.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await buildTestApp({ DASH_PUBLIC_URL: base }, { nodeVersion: AGENT_VERSION });
  const admin = await adminHeaders(t);
  api = nodeApi(t, () => admin);
  node = await api.create();
  const deployed = join(t.config.home, 'deploy', hostAgentTarget()!.asset);
  mkdirSync(join(deployed, '..'), { recursive: true });
  copyFileSync(binary, deployed);
  await t.app.listen({ host: '127.0.0.1', port });

  // Ithiltir-node as its installer leaves it: releases/0.2.5, current → it, report.yaml (0600).
  home = join(tempHome(), 'ithiltir-node');
  mkdirSync(join(home, 'releases', '0.2.5'), { recursive: true });
  const old = join(home, 'releases', '0.2.5', 'ithiltir-node');
  writeFileSync(old, fakeIthiltirNode(agentReport({ version: '0.2.5' })));
  chmodSync(old, 0o755);
  symlinkSync(join(home, 'releases', '0.2.5'), join(home, 'current'));
  writeFileSync(
    join(home, 'report.yaml'),
    `version: 1\ntargets:\n  - id: 1\n    url: ${base}/api/node/metrics\n    key: ${node.secret}\n    server_install_id: server_${'0'.repeat(32)}\n`,
    { mode: 0o600 },
  );
}, 120_000);
afterAll(async () => {
  stopped = true;
  child?.kill('SIGTERM');
  await t.close();
});

async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  let log = '';
  try {
    log = readFileSync(join(home, 'fake.log'), 'utf8').slice(0, 2000);
  } catch {
    // no log
  }
  throw new Error(`timed out waiting for ${what} (starts: ${starts.join(', ')}) ${log}`);
}

describe('upgrading a node that runs Ithiltir-node to the Dash agent', () => {
  it('ends with the Dash agent reporting from the same layout with the same secret', async () => {
    supervise();
    await until(
      'Ithiltir-node to report',
      () => t.deps.nodeUpgrades.agents.get(node.id) !== undefined,
    );
    expect(t.deps.nodeUpgrades.agents.get(node.id)).toEqual({ dash: false });
    // What its static report says (the stand-in sends reports only). Its User-Agent does not
    // name the C library, so Dash picks the build from the distribution.
    const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
    const platform = hostAgentTarget()!.libc === 'musl' ? 'alpine' : 'debian';
    await setReported(t, node.id, { agent_version: '0.2.5', os: 'linux', platform, arch });

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/nodes/${node.id}/upgrade`,
      headers: await adminHeaders(t),
    });
    expect(res.statusCode, res.body).toBe(204);

    await until('the Dash agent to report', async () => {
      return (await api.node(node.id))?.version.version === AGENT_VERSION;
    });
    // Same layout: the new release sits next to the old one under Ithiltir-node's name.
    expect(readlinkSync(join(home, 'current'))).toBe(join(home, 'releases', AGENT_VERSION));
    expect(starts).toEqual([
      join(home, 'releases', '0.2.5'),
      join(home, 'releases', AGENT_VERSION),
    ]);
    // Same config and secret: the file is Ithiltir-node's, untouched, and it is what the agent used.
    const config = readFileSync(join(home, 'report.yaml'), 'utf8');
    expect(config).toContain(`key: ${node.secret}`);
    // Its reports (not only its Static) arrive, from the standalone build.
    await until(
      'a report from the Dash agent',
      () => t.deps.nodeUpgrades.agents.get(node.id)?.dash === true,
    );
    expect(t.deps.nodeUpgrades.agents.get(node.id)).toMatchObject({ runtime: 'standalone' });
    expect(child?.exitCode).toBeNull();
  }, 60_000);
});
