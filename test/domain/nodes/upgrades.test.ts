import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadGrants, GRANT_TTL_MS } from '../../../src/domain/nodes/download-grants.js';
import {
  NodeUpgrades,
  type AgentAssets,
  type AssetInfo,
} from '../../../src/domain/nodes/upgrades.js';
import { parseAgentUserAgent } from '../../../src/domain/nodes/agent-build.js';
import { distributionLibc } from '../../../src/domain/nodes/libc.js';
import { randomAlnum } from '../../../src/platform/crypto.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import type { AppError } from '../../../src/errors/app-error.js';
import { FakeClock } from '../../support/fake-clock.js';

const SHA = 'a'.repeat(64);

class FakeAssets implements AgentAssets {
  files = new Map<string, AssetInfo>([['linux/node_linux_amd64', { sha256: SHA, size: 42 }]]);
  fail = false;
  async describe(path: string) {
    if (this.fail) throw new Error('EACCES');
    return this.files.get(path) ?? null;
  }
}

let store: SqliteStore;
let clock: FakeClock;
let assets: FakeAssets;
let grants: DownloadGrants;
let nodeId: number;

function service(bundledVersion = '0.3.0', g: DownloadGrants = grants) {
  const s = new NodeUpgrades({
    nodes: store.nodes,
    assets,
    grants: g,
    clock,
    log: silentLogger,
    bundledVersion,
    publicUrl: 'https://dash.example.com',
  });
  s.agents.observe(nodeId, 'nodeagent/0.2.3 (linux; amd64; glibc; standalone)');
  return s;
}

function setNode(fields: { agent_version?: string; os?: string; arch?: string }) {
  for (const [k, v] of Object.entries(fields)) {
    store.raw.prepare(`UPDATE nodes SET ${k} = ? WHERE id = ?`).run(v, nodeId);
  }
}

async function codeOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
}

beforeEach(async () => {
  store = openSqliteStore(':memory:', 0);
  clock = new FakeClock();
  assets = new FakeAssets();
  grants = new DownloadGrants(clock, randomAlnum);
  const res = await store.nodes.create({ name: 'n', secretHash: 'h', secretEnc: 'e' }, 0);
  if (!res.ok) throw new Error('create');
  nodeId = res.id;
  setNode({ agent_version: '0.2.3', os: 'linux', arch: 'x86_64' });
});
afterEach(async () => store.close());

describe('upgrade requests', () => {
  it('refuses in the reference order', async () => {
    expect(await codeOf(service('unknown').request(nodeId))).toBe('node_version_unavailable');
    expect(await codeOf(service('').request(nodeId))).toBe('node_version_unavailable');
    expect(await codeOf(service('not-semver').request(nodeId))).toBe('invalid_node_version');
    expect(await codeOf(service().request(999))).toBe('not_found');
    setNode({ agent_version: '0.2.2' });
    expect(await codeOf(service().request(nodeId))).toBe('node_upgrade_unsupported');
    setNode({ agent_version: '0.2.3-rc.1' });
    expect(await codeOf(service().request(nodeId))).toBe('node_upgrade_unsupported');
    setNode({ agent_version: 'unknown' });
    expect(await codeOf(service().request(nodeId))).toBe('node_upgrade_unsupported');
    setNode({ agent_version: '0.2.3', os: '' });
    expect(await codeOf(service().request(nodeId))).toBe('node_platform_unknown');
    setNode({ os: 'plan9' });
    expect(await codeOf(service().request(nodeId))).toBe('node_platform_unsupported');
    setNode({ os: 'linux', arch: 'aarch64' });
    expect(await codeOf(service().request(nodeId))).toBe('node_asset_missing');
    setNode({ arch: 'amd64' });
    assets.fail = true;
    expect(await codeOf(service().request(nodeId))).toBe('node_asset_error');
  });

  it('answers node_upgrade_grant_error when no grant can be prepared', async () => {
    const broken = new DownloadGrants(clock, () => {
      throw new Error('no entropy');
    });
    const s = service('0.3.0', broken);
    expect(await codeOf(s.request(nodeId))).toBe('node_upgrade_grant_error');
    expect(s.hasPending(nodeId)).toBe(false);
  });
});

describe('legacy and authenticating nodes', () => {
  it('prepares no grant for a node that sends X-Node-Secret on the download (0.3.0 or later)', async () => {
    setNode({ agent_version: '0.3.0' });
    const broken = new DownloadGrants(clock, () => {
      throw new Error('no entropy');
    });
    const s = service('0.4.0', broken);
    await s.request(nodeId);
    expect(s.hasPending(nodeId)).toBe(true);
    const m = await s.manifestFor(nodeId, '0.3.0');
    expect(m?.url).toBe('https://dash.example.com/deploy/linux/node_linux_amd64');
  });

  it('gives the plain URL and issues no grant to an authenticating node', async () => {
    setNode({ agent_version: '0.3.1+build.7' });
    const s = service('0.4.0');
    await s.request(nodeId);
    expect(grants.size).toBe(0);
    const url = new URL((await s.manifestFor(nodeId, '0.3.1+build.7'))?.url ?? '');
    expect(url.search).toBe('');
    expect(grants.size).toBe(0);
  });

  it('follows the version the node reports now: a grant only while it reports a legacy version', async () => {
    const s = service('0.4.0');
    await s.request(nodeId); // requested while the node reported 0.2.3
    expect(grants.size).toBe(1);
    const legacy = new URL((await s.manifestFor(nodeId, '0.2.3'))?.url ?? '');
    expect(legacy.searchParams.get('upgrade_token')).toMatch(/^[A-Za-z0-9]{32}$/);
    // Updated by hand to an agent that authenticates; the target is still newer.
    const plain = new URL((await s.manifestFor(nodeId, '0.3.0'))?.url ?? '');
    expect(plain.search).toBe('');
    // An unreadable version cannot prove the agent authenticates: it keeps the grant.
    const unknown = new URL((await s.manifestFor(nodeId, 'garbage'))?.url ?? '');
    expect(unknown.searchParams.get('upgrade_token')).toBe(
      legacy.searchParams.get('upgrade_token'),
    );
  });

  it('answers null, keeping the upgrade pending, when a legacy grant cannot be renewed', async () => {
    setNode({ agent_version: '0.3.0' });
    let broken = false;
    const flaky = new DownloadGrants(clock, (n) => {
      if (broken) throw new Error('no entropy');
      return randomAlnum(n);
    });
    const s = service('0.4.0', flaky);
    await s.request(nodeId);
    broken = true;
    expect(await s.manifestFor(nodeId, '0.2.9')).toBeNull();
    expect(s.hasPending(nodeId)).toBe(true);
    broken = false;
    expect(await s.manifestFor(nodeId, '0.2.9')).not.toBeNull();
  });
});

describe('manifest delivery', () => {
  it('offers nothing without a pending upgrade', async () => {
    expect(await service().manifestFor(nodeId, '0.2.3')).toBeNull();
  });

  it('offers the manifest with a grant for that asset until the node reports the target', async () => {
    const s = service('0.3.0');
    await s.request(nodeId);
    const m = await s.manifestFor(nodeId, '0.2.3');
    expect(m).toMatchObject({ id: '0.3.0', version: '0.3.0', sha256: SHA, size: 42 });
    const url = new URL(m?.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://dash.example.com/deploy/linux/node_linux_amd64',
    );
    const token = url.searchParams.get('upgrade_token') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(grants.allows(token, 'linux/node_linux_amd64')).toBe(true);
    expect(await s.manifestFor(nodeId, '0.3.0-rc.1')).not.toBeNull();
    expect(await s.manifestFor(nodeId, '0.3.0')).toBeNull();
    expect(s.hasPending(nodeId)).toBe(false);
    expect(await s.manifestFor(nodeId, '0.2.3')).toBeNull();
  });

  it('clears when the node reports a higher precedence', async () => {
    const s = service('0.3.0');
    await s.request(nodeId);
    expect(await s.manifestFor(nodeId, '0.4.0-alpha')).toBeNull();
    expect(s.hasPending(nodeId)).toBe(false);
  });

  it('still delivers a different build at equal precedence, and clears on the exact build', async () => {
    const s = service('0.3.0+build.2');
    await s.request(nodeId);
    expect((await s.manifestFor(nodeId, '0.3.0+build.1'))?.version).toBe('0.3.0+build.2');
    expect(await s.manifestFor(nodeId, '0.3.0')).not.toBeNull();
    expect(await s.manifestFor(nodeId, '0.3.0+build.2')).toBeNull();
    expect(s.hasPending(nodeId)).toBe(false);
  });

  it('clears a prerelease target once the release is reported', async () => {
    const s = service('0.3.0-rc.2');
    await s.request(nodeId);
    expect(await s.manifestFor(nodeId, '0.3.0-rc.1')).not.toBeNull();
    expect(await s.manifestFor(nodeId, '0.3.0')).toBeNull();
  });

  it('renews a grant close to expiry, and keeps a fresh one', async () => {
    const s = service();
    await s.request(nodeId);
    const first = new URL((await s.manifestFor(nodeId, '0.2.3'))?.url ?? '');
    clock.advance(5 * 60 * 1000);
    const same = new URL((await s.manifestFor(nodeId, '0.2.3'))?.url ?? '');
    expect(same.href).toBe(first.href);
    clock.advance(GRANT_TTL_MS);
    const renewed = new URL((await s.manifestFor(nodeId, '0.2.3'))?.url ?? '');
    const token = renewed.searchParams.get('upgrade_token') ?? '';
    expect(token).not.toBe(first.searchParams.get('upgrade_token'));
    expect(grants.allows(token, 'linux/node_linux_amd64')).toBe(true);
  });

  it('answers null (and keeps the upgrade pending) when the asset cannot be read', async () => {
    const s = service();
    await s.request(nodeId);
    assets.fail = true;
    expect(await s.manifestFor(nodeId, '0.2.3')).toBeNull();
    assets.fail = false;
    assets.files.clear();
    expect(await s.manifestFor(nodeId, '0.2.3')).toBeNull();
    expect(s.hasPending(nodeId)).toBe(true);
  });

  it('forgets the upgrade of a deleted node', async () => {
    const s = service();
    await s.request(nodeId);
    s.forget(nodeId);
    expect(await s.manifestFor(nodeId, '0.2.3')).toBeNull();
  });
});

describe("reading an agent's User-Agent", () => {
  it('tells Dash builds, runtimes and C libraries apart', () => {
    expect(parseAgentUserAgent('nodeagent/0.3.0 (linux; arm64; musl; standalone)')).toEqual({
      dash: true,
      runtime: 'standalone',
      libc: 'musl',
    });
    expect(parseAgentUserAgent('nodeagent/0.3.0 (macos; arm64; node)')).toEqual({
      dash: true,
      runtime: 'node',
    });
    expect(parseAgentUserAgent('nodeagent')).toEqual({ dash: true, runtime: 'node' });
    expect(parseAgentUserAgent('Go-http-client/1.1')).toEqual({ dash: false });
    expect(parseAgentUserAgent(undefined)).toEqual({ dash: false });
  });
});

describe('the C library of a reported distribution', () => {
  it.each([
    ['alpine', 'musl'],
    ['Alpine', 'musl'],
    ['openwrt', 'musl'],
    ['debian', 'glibc'],
    ['ubuntu', 'glibc'],
    ['redhat', 'glibc'],
    ['amzn', 'glibc'],
    ['void', undefined],
    ['gentoo', undefined],
    ['unknown', undefined],
    ['', undefined],
  ])('%j → %s', (platform, libc) => {
    expect(distributionLibc(platform)).toBe(libc);
  });
});
