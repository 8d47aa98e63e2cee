import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadVerified, installRelease } from '../../../src/agent/update/install.js';
import { fetchTransport } from '../../../src/agent/push/transport.js';
import { gzipSync } from 'node:zlib';
import { detectLayout, type ManagedLayout } from '../../../src/agent/update/layout.js';
import { Updater } from '../../../src/agent/update/updater.js';
import type { UpdateManifest } from '../../../src/agent/payload.js';
import { FakeAgentClock, MemoryLog } from '../support/agent-fakes.js';
import { StubDash } from '../support/stub-dash.js';

const NEW_AGENT = Buffer.from('#!/usr/bin/env node\nconsole.log("0.4.0");\n');
const digest = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A managed layout with release 0.3.0 installed and `current` pointing at it. */
function managedLayout(): { root: string; layout: ManagedLayout } {
  const root = mkdtempSync(join(tmpdir(), 'nodeagent-layout-'));
  mkdirSync(join(root, 'releases', '0.3.0'), { recursive: true });
  writeFileSync(join(root, 'releases', '0.3.0', 'nodeagent'), 'old agent', { mode: 0o755 });
  symlinkSync(join('releases', '0.3.0'), join(root, 'current'));
  return { root, layout: { kind: 'releases', root, binaryName: 'nodeagent' } };
}

const stubs: StubDash[] = [];
/** Serves the asset only to callers presenting the node secret, like Dash's /deploy. */
async function assetServer(body: Buffer = NEW_AGENT): Promise<StubDash> {
  const s = await new StubDash().start();
  s.responder = (req, res) => {
    if (req.secret !== 'node-secret') {
      res.writeHead(401, { 'Content-Type': 'text/plain' }).end('Unauthorized');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(body);
  };
  stubs.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
});

function manifestFor(s: StubDash, over: Partial<UpdateManifest> = {}): UpdateManifest {
  return {
    id: '0.4.0',
    version: '0.4.0',
    url: s.url('/deploy/linux/node_linux_amd64'),
    sha256: digest(NEW_AGENT),
    size: NEW_AGENT.length,
    ...over,
  };
}

function expectStillOnOldRelease(root: string): void {
  expect(readlinkSync(join(root, 'current'))).toBe(join('releases', '0.3.0'));
  expect(readFileSync(join(root, 'current', 'nodeagent'), 'utf8')).toBe('old agent');
  const leftovers = readdirSync(root).filter((n) => n.startsWith('.current-'));
  expect(leftovers).toEqual([]);
  const staged = existsSync(join(root, 'releases', '0.4.0'))
    ? readdirSync(join(root, 'releases', '0.4.0'))
    : [];
  expect(staged).toEqual([]);
}

describe('managed layout detection (spec §4.4 rule 6)', () => {
  const root = '/var/lib/nodeagent';
  const probe = (scriptPath: string, platform: NodeJS.Platform = 'linux', env = {}) =>
    detectLayout({ platform, env, scriptPath });

  it('recognises current/nodeagent and releases/<version>/nodeagent', () => {
    const layout = { kind: 'releases', root, binaryName: 'nodeagent' };
    expect(probe(`${root}/current/nodeagent`)).toEqual(layout);
    expect(probe(`${root}/releases/0.3.0/nodeagent`, 'darwin')).toEqual(layout);
  });

  it("recognises Ithiltir-node's layout, keeping its binary name (drop-in)", () => {
    const ith = '/var/lib/ithiltir-node';
    const layout = { kind: 'releases', root: ith, binaryName: 'ithiltir-node' };
    expect(probe(`${ith}/current/ithiltir-node`)).toEqual(layout);
    expect(probe(`${ith}/releases/0.2.5/ithiltir-node`)).toEqual(layout);
    expect(probe(`${ith}/current/nodeagent`)).toBeUndefined();
    expect(probe(`${root}/current/ithiltir-node`)).toBeUndefined();
    expect(
      probe('/srv/ith/current/ithiltir-node', 'linux', { ITHILTIR_NODE_HOME: '/srv/ith' }),
    ).toEqual({ ...layout, root: '/srv/ith' });
  });

  it('ignores every other location', () => {
    expect(probe('/usr/local/bin/nodeagent')).toBeUndefined();
    expect(probe(`${root}/current/nodeagent.mjs`)).toBeUndefined();
    expect(probe(`${root}/releases/nodeagent`)).toBeUndefined();
    expect(probe(`${root}/releases/0.3.0/sub/nodeagent`)).toBeUndefined();
    expect(probe('/opt/dash/dist/agent/nodeagent.mjs')).toBeUndefined();
    expect(detectLayout({ platform: 'linux', env: {}, scriptPath: undefined })).toBeUndefined();
  });

  it('on Windows, only under the runner (NODE_RUNNER=1)', () => {
    const script = 'C:\\ProgramData\\nodeagent\\bin\\nodeagent.exe';
    expect(probe(script, 'win32', {})).toBeUndefined();
    expect(probe(script, 'win32', { NODE_RUNNER: '1' })).toMatchObject({ kind: 'runner' });
    expect(probe(script, 'win32', { ITHILTIR_NODE_RUNNER: '1' })).toMatchObject({
      kind: 'runner',
    });
  });
});

describe('installing a release', () => {
  it('downloads with the node secret, verifies it and switches `current` atomically', async () => {
    const s = await assetServer();
    const { root, layout } = managedLayout();
    const binary = await installRelease(layout, manifestFor(s), 'node-secret');
    expect(s.received[0]).toMatchObject({ method: 'GET', secret: 'node-secret' });
    expect(binary).toBe(join(root, 'releases', '0.4.0', 'nodeagent'));
    expect(lstatSync(join(root, 'current')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'current'))).toBe(join('releases', '0.4.0'));
    expect(readFileSync(join(root, 'current', 'nodeagent'))).toEqual(NEW_AGENT);
    expect(statSync(binary).mode & 0o777).toBe(0o755);
    // The previous release stays for a manual rollback; no temporary files remain.
    expect(readFileSync(join(root, 'releases', '0.3.0', 'nodeagent'), 'utf8')).toBe('old agent');
    expect(readdirSync(join(root, 'releases', '0.4.0'))).toEqual(['nodeagent']);
    expect(readdirSync(root).sort()).toEqual(['current', 'releases']);
  });

  it.each([
    ['a size that does not match', { size: NEW_AGENT.length + 1 }, 'bytes'],
    ['a body larger than announced', { size: NEW_AGENT.length - 1 }, 'larger'],
    ['a wrong SHA-256', { sha256: 'f'.repeat(64) }, 'SHA-256'],
  ])('refuses %s and leaves the running release alone', async (_name, over, message) => {
    const s = await assetServer();
    const { root, layout } = managedLayout();
    await expect(installRelease(layout, manifestFor(s, over), 'node-secret')).rejects.toThrow(
      message,
    );
    expectStillOnOldRelease(root);
  });

  it('refuses a download the server does not answer with 200', async () => {
    const s = await assetServer();
    const { root, layout } = managedLayout();
    await expect(installRelease(layout, manifestFor(s), 'wrong-secret')).rejects.toThrow('401');
    expectStillOnOldRelease(root);
  });

  it.each([
    ['plain', false],
    ['gzip-encoded, as Dash serves it to clients that ask', true],
  ])("downloads through fetch (the standalone build's client), %s", async (_kind, encoded) => {
    const s = await assetServer();
    s.responder = (req, res) => {
      const gz = encoded && req.secret === 'node-secret';
      res
        .writeHead(200, {
          'Content-Type': 'application/octet-stream',
          ...(gz ? { 'Content-Encoding': 'gzip' } : {}),
        })
        .end(gz ? gzipSync(NEW_AGENT) : NEW_AGENT);
    };
    const dest = join(mkdtempSync(join(tmpdir(), 'nodeagent-dl-')), 'nodeagent');
    await downloadVerified(manifestFor(s), 'node-secret', dest, fetchTransport);
    expect(readFileSync(dest)).toEqual(NEW_AGENT);
    const tooSmall = manifestFor(s, { size: NEW_AGENT.length - 1 });
    const dest2 = `${dest}-2`;
    await expect(downloadVerified(tooSmall, 'node-secret', dest2, fetchTransport)).rejects.toThrow(
      'larger',
    );
    expect(existsSync(dest2)).toBe(false);
  });

  it('replaces the script in place under the Windows runner', async () => {
    const s = await assetServer();
    const dir = mkdtempSync(join(tmpdir(), 'nodeagent-runner-'));
    const script = join(dir, 'nodeagent.mjs');
    writeFileSync(script, 'old agent');
    await installRelease({ kind: 'runner', binary: script }, manifestFor(s), 'node-secret');
    expect(readFileSync(script)).toEqual(NEW_AGENT);
    expect(readdirSync(dir)).toEqual(['nodeagent.mjs']);
  });
});

describe('Updater', () => {
  function updater(layout: ManagedLayout | undefined, requireHttps = false) {
    const restarts: string[] = [];
    const clock = new FakeAgentClock();
    const log = new MemoryLog();
    const u = new Updater({
      layout,
      currentVersion: '0.3.0',
      requireHttps,
      clock,
      log,
      restart: (b) => restarts.push(b),
    });
    return { u, restarts, clock, log };
  }
  const target = { url: 'http://127.0.0.1/api/node/metrics', key: 'node-secret' };

  it('ignores manifests outside a managed layout', async () => {
    const s = await assetServer();
    const { u, restarts } = updater(undefined);
    expect(await u.consider([{ raw: manifestFor(s), from: target }])).toBe(false);
    expect(s.received).toHaveLength(0);
    expect(restarts).toEqual([]);
  });

  it('installs an agreed manifest and asks for a restart into the new binary', async () => {
    const s = await assetServer();
    const { root, layout } = managedLayout();
    const { u, restarts } = updater(layout);
    const m = manifestFor(s);
    expect(
      await u.consider([
        { raw: m, from: target },
        { raw: { ...m }, from: { ...target, key: 'other' } },
      ]),
    ).toBe(true);
    expect(restarts).toEqual([join(root, 'releases', '0.4.0', 'nodeagent')]);
  });

  it('does nothing on conflicting manifests', async () => {
    const s = await assetServer();
    const { root, layout } = managedLayout();
    const { u, restarts, log } = updater(layout);
    const m = manifestFor(s);
    await u.consider([
      { raw: m, from: target },
      { raw: { ...m, size: 1 }, from: target },
    ]);
    expect(s.received).toHaveLength(0);
    expect(restarts).toEqual([]);
    expect(log.count('warn', 'different manifests')).toBe(1);
    expectStillOnOldRelease(root);
  });

  it('refuses a plain-HTTP download under --require-https', async () => {
    const s = await assetServer();
    const { layout } = managedLayout();
    const { u, log } = updater(layout, true);
    expect(await u.consider([{ raw: manifestFor(s), from: target }])).toBe(false);
    expect(s.received).toHaveLength(0);
    expect(log.count('warn', 'not HTTPS')).toBe(1);
  });

  it('waits five minutes before retrying a manifest that failed', async () => {
    const s = await assetServer();
    const { layout } = managedLayout();
    const { u, clock } = updater(layout);
    const bad = manifestFor(s, { sha256: 'f'.repeat(64) });
    expect(await u.consider([{ raw: bad, from: target }])).toBe(false);
    clock.advance(60_000);
    await u.consider([{ raw: bad, from: target }]);
    expect(s.received).toHaveLength(1);
    clock.advance(5 * 60_000);
    await u.consider([{ raw: bad, from: target }]);
    expect(s.received).toHaveLength(2);
  });
});
