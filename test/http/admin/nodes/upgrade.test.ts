import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet, setReported } from '../../../support/fleet.js';
import { agentReport } from '../../../support/agent-payloads.js';
import { nodeApi, type ListedNode } from './helpers.js';

const BYTES = 'agent build 0.3.0\n';

describe('POST /api/admin/nodes/{id}/upgrade without a bundled agent', () => {
  it('answers 409 node_version_unavailable', async () => {
    const t = await buildTestApp({}, { nodeVersion: 'unknown' });
    try {
      const admin = await adminHeaders(t);
      const node = await nodeApi(t, () => admin).create();
      await setReported(t, node.id, {
        agent_version: '0.2.5',
        os: 'linux',
        platform: 'debian',
        arch: 'amd64',
      });
      t.deps.nodeUpgrades.agents.observe(node.id, 'Go-http-client/1.1');
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/nodes/${node.id}/upgrade`,
        headers: admin,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'node_version_unavailable' });
      expect(t.deps.nodeUpgrades.hasPending(node.id)).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/admin/nodes/{id}/upgrade with bundled agent 0.3.0', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let node: ListedNode;
  beforeAll(async () => {
    t = await buildTestApp({ DASH_PUBLIC_URL: 'http://127.0.0.1:8080' }, { nodeVersion: '0.3.0' });
    admin = await adminHeaders(t);
    mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), BYTES);
  });
  beforeEach(async () => {
    await resetFleet(t);
    node = await nodeApi(t, () => admin).create();
    await setReported(t, node.id, {
      agent_version: '0.2.3',
      os: 'linux',
      platform: 'debian',
      arch: 'x86_64',
    });
    // The node's last report came from Ithiltir-node (Go's default User-Agent).
    t.deps.nodeUpgrades.agents.observe(node.id, 'Go-http-client/1.1');
  });
  afterAll(async () => t.close());
  const upgrade = (id: number | string = node.id) =>
    t.app.inject({ method: 'POST', url: `/api/admin/nodes/${id}/upgrade`, headers: admin });

  it('queues the upgrade; the next metrics answer carries the manifest', async () => {
    expect(await t.deps.updateOffers.manifestFor(node.id, '0.2.3')).toBeNull();
    const res = await upgrade();
    expect(res.statusCode).toBe(204);
    const manifest = await t.deps.updateOffers.manifestFor(node.id, '0.2.3');
    expect(manifest).toMatchObject({
      id: '0.3.0',
      version: '0.3.0',
      sha256: createHash('sha256').update(BYTES).digest('hex'),
      size: Buffer.byteLength(BYTES),
    });
    const url = new URL(manifest?.url ?? '');
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:8080/deploy/linux/node_linux_amd64');
    // A legacy agent downloads with the URL as given, without X-Node-Secret.
    const download = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(BYTES);
    // Reporting the target clears it.
    expect(await t.deps.updateOffers.manifestFor(node.id, '0.3.0')).toBeNull();
    expect(await t.deps.updateOffers.manifestFor(node.id, '0.2.3')).toBeNull();
  });

  it.each([
    [{ agent_version: '0.2.2' }, 409, 'node_upgrade_unsupported'],
    [{ agent_version: 'unknown' }, 409, 'node_upgrade_unsupported'],
    [{ os: '' }, 409, 'node_platform_unknown'],
    [{ os: 'freebsd' }, 409, 'node_platform_unsupported'],
    [{ arch: 'arm64' }, 409, 'node_asset_missing'],
    [{ os: 'windows' }, 409, 'node_asset_missing'],
  ])('refuses a node with %j: %i %s', async (fields, status, code) => {
    await setReported(t, node.id, fields);
    const res = await upgrade();
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect(t.deps.nodeUpgrades.hasPending(node.id)).toBe(false);
  });

  it.each([
    ['abc', 400, 'invalid_id'],
    ['0', 400, 'invalid_id'],
    ['777', 404, 'not_found'],
  ])('answers id %s with %i %s', async (id, status, code) => {
    const res = await upgrade(id);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
  });

  it('forgets the pending upgrade when the node is deleted', async () => {
    expect((await upgrade()).statusCode).toBe(204);
    await nodeApi(t, () => admin).send('DELETE', `/api/admin/nodes/${node.id}`);
    expect(t.deps.nodeUpgrades.hasPending(node.id)).toBe(false);
    expect((await upgrade()).statusCode).toBe(404);
  });

  it('refuses with 409 node_upgrade_unsafe when the agent cannot be replaced safely', async () => {
    // Nothing heard from the node since Dash started: its agent is unknown.
    t.deps.nodeUpgrades.agents.forget(node.id);
    let res = await upgrade();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'node_upgrade_unsafe' });
    expect(res.json<{ message: string }>().message).toMatch(/has not reported since Dash started/);
    // Dash's JS agent: its service runs `node <file>`, which cannot start an executable.
    for (const ua of ['nodeagent', 'nodeagent/0.2.9 (linux; amd64; glibc; node)']) {
      const report = await t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: {
          'x-node-secret': node.secret,
          'user-agent': ua,
          'content-type': 'application/json',
        },
        payload: '{}',
      });
      expect(report.statusCode).not.toBe(401);
      res = await upgrade();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'node_upgrade_unsafe' });
      expect(res.json<{ message: string }>().message).toMatch(/Node\.js build of the agent/);
    }
    expect(t.deps.nodeUpgrades.hasPending(node.id)).toBe(false);
  });

  it('offers the musl build to a standalone agent on a musl host', async () => {
    t.deps.nodeUpgrades.agents.observe(node.id, 'nodeagent/0.2.9 (linux; amd64; musl; standalone)');
    const missing = await upgrade();
    expect(missing.statusCode).toBe(409);
    expect(missing.json()).toMatchObject({ code: 'node_asset_missing' });
    expect(missing.json<{ message: string }>().message).toContain('linux/node_linux_amd64_musl');
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64_musl'), 'musl build');
    expect((await upgrade()).statusCode).toBe(204);
    const manifest = await t.deps.updateOffers.manifestFor(node.id, '0.2.9');
    expect(new URL(manifest?.url ?? '').pathname).toBe('/deploy/linux/node_linux_amd64_musl');
  });
  it('offers Ithiltir-node on Alpine the musl build: its User-Agent does not name the C library', async () => {
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64_musl'), 'musl build');
    await setReported(t, node.id, { platform: 'alpine' });
    expect((await upgrade()).statusCode).toBe(204);
    const manifest = await t.deps.updateOffers.manifestFor(node.id, '0.2.3');
    expect(new URL(manifest?.url ?? '').pathname).toBe('/deploy/linux/node_linux_amd64_musl');
  });

  it.each(['void', 'gentoo', ''])(
    'refuses Ithiltir-node on a distribution whose C library is unknown (%j) with 409',
    async (platform) => {
      await setReported(t, node.id, { platform });
      const res = await upgrade();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'node_upgrade_unsafe' });
      expect(res.json<{ message: string }>().message).toMatch(/glibc or musl/);
    },
  );
});

describe('upgrade manifests in the metrics answer (bundled agent 0.4.0)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp({ DASH_PUBLIC_URL: 'http://127.0.0.1:8080' }, { nodeVersion: '0.4.0' });
    admin = await adminHeaders(t);
    mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), BYTES);
  });
  beforeEach(async () => resetFleet(t));
  afterAll(async () => t.close());

  async function queuedNode(version: string) {
    const node = await nodeApi(t, () => admin).create();
    await setReported(t, node.id, {
      agent_version: version,
      os: 'linux',
      platform: 'debian',
      arch: 'x86_64',
    });
    t.deps.nodeUpgrades.agents.observe(node.id, `nodeagent/${version} (linux; amd64; standalone)`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/nodes/${node.id}/upgrade`,
      headers: admin,
    });
    expect(res.statusCode).toBe(204);
    return node;
  }
  async function reportedUpdate(secret: string, version: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': secret },
      payload: JSON.stringify(agentReport({ version })),
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ ok: boolean; update: { url: string } | null }>().update;
  }

  it('gives a node that authenticates its download a plain URL it fetches with its secret', async () => {
    const node = await queuedNode('0.3.0');
    const update = await reportedUpdate(node.secret, '0.3.0');
    expect(update?.url).toBe('http://127.0.0.1:8080/deploy/linux/node_linux_amd64');
    const path = new URL(update?.url ?? '').pathname;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
    const download = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { 'x-node-secret': node.secret },
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(BYTES);
  });

  it('gives a legacy node an upgrade_token URL it fetches without a secret', async () => {
    const node = await queuedNode('0.2.5');
    const url = new URL((await reportedUpdate(node.secret, '0.2.5'))?.url ?? '');
    expect(url.searchParams.get('upgrade_token')).toMatch(/^[A-Za-z0-9]{32}$/);
    const download = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
  });
});
