import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/run.js';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { anyStatfs, fixturePaths, MemoryLog } from './support/agent-fakes.js';
import { nodeReportViolations } from './support/payload-rules.js';
import { acceptAll, StubDash } from './support/stub-dash.js';

const stubs: StubDash[] = [];
async function stub(): Promise<StubDash> {
  const s = await new StubDash().start();
  stubs.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('startAgent (in-process agent for dash serve)', () => {
  it('sends Static, then reports on the interval until stopped', async () => {
    const s = await stub();
    const agent = startAgent({
      targets: [{ url: s.url(), key: 'local-secret' }],
      intervalMs: 100,
      paths: fixturePaths('ubuntu24-6.8'),
      statfs: anyStatfs,
    });
    expect(agent.targets).toBe(1);
    await until(() => s.count('/metrics') >= 3);
    await agent.stop();
    const sent = s.received.length;
    expect(s.received[0]!.path).toBe('/api/node/static');
    for (const r of s.received.filter((x) => x.path.endsWith('/metrics'))) {
      expect(nodeReportViolations(r.json)).toEqual([]);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(s.received.length).toBe(sent);
  });

  it('sends the first report after firstReportMs, not a whole interval', async () => {
    const s = await stub();
    const agent = startAgent({
      targets: [{ url: s.url(), key: 'local-secret' }],
      intervalMs: 60_000,
      firstReportMs: 50,
      paths: fixturePaths('ubuntu24-6.8'),
      statfs: anyStatfs,
    });
    await until(() => s.count('/metrics') >= 1);
    await agent.stop();
    expect(s.count('/metrics')).toBe(1);
  });

  it('starts nothing when every target is refused', async () => {
    const log = new MemoryLog();
    const agent = startAgent({
      targets: [{ url: 'http://127.0.0.1:9/api/node/metrics', key: 'k' }],
      requireHttps: true,
      log,
    });
    expect(agent.targets).toBe(0);
    await agent.stop();
    expect(log.count('error', 'not HTTPS')).toBe(1);
  });

  it('installs an offered update in a managed layout and asks for a restart', async () => {
    const asset = Buffer.from('#!/usr/bin/env node\n// next release\n');
    const root = mkdtempSync(join(tmpdir(), 'nodeagent-e2e-'));
    mkdirSync(join(root, 'releases', AGENT_VERSION), { recursive: true });
    writeFileSync(join(root, 'releases', AGENT_VERSION, 'nodeagent'), 'current agent');
    symlinkSync(join('releases', AGENT_VERSION), join(root, 'current'));

    const s = await stub();
    s.responder = (req, res) => {
      if (req.path.startsWith('/deploy/')) {
        if (req.secret !== 'node-secret') return void res.writeHead(401).end('Unauthorized');
        return void res.writeHead(200).end(asset);
      }
      if (!req.path.endsWith('/metrics')) return acceptAll(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          ok: true,
          update: {
            id: '9.9.9',
            version: '9.9.9',
            url: s.url('/deploy/linux/node_linux_amd64'),
            sha256: createHash('sha256').update(asset).digest('hex'),
            size: asset.length,
          },
        }),
      );
    };
    const restarts: string[] = [];
    const agent = startAgent({
      targets: [{ url: s.url(), key: 'node-secret' }],
      intervalMs: 100,
      paths: fixturePaths('minimal'),
      statfs: anyStatfs,
      updates: {
        layout: { kind: 'releases', root, binaryName: 'nodeagent' },
        restart: (b) => restarts.push(b),
      },
    });
    await until(() => restarts.length > 0);
    await agent.stop();
    expect(restarts[0]).toBe(join(root, 'releases', '9.9.9', 'nodeagent'));
    expect(readlinkSync(join(root, 'current'))).toBe(join('releases', '9.9.9'));
    expect(readFileSync(join(root, 'current', 'nodeagent'))).toEqual(asset);
  });
});
