import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';
import { agentStatic } from '../../support/agent-static.js';
import { parseStaticInfo } from '../../../src/domain/nodes/static-info.js';

let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

function post(secret: string | null, body: unknown, raw?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/node/static',
    headers: {
      'content-type': 'application/json',
      ...(secret !== null ? { 'x-node-secret': secret } : {}),
    },
    payload: raw ?? JSON.stringify(body),
  });
}

interface NodeRow {
  name: string;
  hostname: string;
  os: string;
  platform: string;
  platform_version: string;
  kernel_version: string;
  arch: string;
  agent_version: string;
  interval_sec: number;
  static_json: string | null;
  ip: string | null;
}
const nodeRow = async (id: number) =>
  (await t.sql.get<NodeRow>('SELECT * FROM nodes WHERE id = ?', id))!;

describe('POST /api/node/static', () => {
  it('stores the host facts and answers 200 with plain-text ok', async () => {
    const { id, secret } = await seedNode(t);
    const res = await post(secret, agentStatic());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('ok');
    const row = await nodeRow(id);
    expect(row).toMatchObject({
      hostname: 'web-01.example.net',
      os: 'linux',
      platform: 'debian',
      platform_version: '12.8',
      kernel_version: '6.1.0-27-amd64',
      arch: 'x86_64',
      agent_version: '0.2.5',
      interval_sec: 3,
      ip: '127.0.0.1',
    });
    expect(parseStaticInfo(row.static_json)).toEqual({
      cpu: {
        modelName: 'Intel(R) Xeon(R) E-2276G CPU @ 3.80GHz',
        vendorId: 'GenuineIntel',
        sockets: 1,
        coresPhysical: 6,
        coresLogical: 12,
        frequencyMhz: 3800,
      },
      memory: { total: 32 * 1024 ** 3, swapTotal: 2 * 1024 ** 3 },
      raid: { supported: true, available: true },
      root: { path: '/srv/data', fsType: 'ext4', total: 3726 * 1024 ** 3 },
      reportedAt: Date.UTC(2026, 10, 21, 10, 59, 58, 123),
    });
  });

  it('names a node after its hostname only while it has the creation placeholder', async () => {
    const placeholder = await seedNode(t, { name: 'Untitled' });
    const empty = await seedNode(t, { name: '' });
    const named = await seedNode(t, { name: 'edge router' });
    for (const n of [placeholder, empty, named]) {
      expect((await post(n.secret, agentStatic({ hostname: 'db-7' }))).statusCode).toBe(200);
    }
    expect((await nodeRow(placeholder.id)).name).toBe('db-7');
    expect((await nodeRow(empty.id)).name).toBe('db-7');
    expect((await nodeRow(named.id)).name).toBe('edge router');
    // Once named from the hostname, a new hostname no longer renames it.
    await post(placeholder.secret, agentStatic({ hostname: 'db-8' }));
    expect((await nodeRow(placeholder.id)).name).toBe('db-7');
    expect((await nodeRow(placeholder.id)).hostname).toBe('db-8');
  });

  it('keeps known CPU and memory facts when a later report does not know them', async () => {
    const { id, secret } = await seedNode(t);
    await post(secret, agentStatic());
    const partial = agentStatic({ version: '0.2.6' });
    partial.cpu.info = { ...partial.cpu.info, model_name: '', cores_logical: 0, frequency_mhz: 0 };
    partial.memory = { total: 0, swap_total: 0 };
    await post(secret, partial);
    const info = parseStaticInfo((await nodeRow(id)).static_json);
    expect(info.cpu.modelName).toBe('Intel(R) Xeon(R) E-2276G CPU @ 3.80GHz');
    expect(info.cpu.coresLogical).toBe(12);
    expect(info.cpu.frequencyMhz).toBe(3800);
    expect(info.memory.total).toBe(32 * 1024 ** 3);
    // swap 0 is a fact (swap off), not "unknown".
    expect(info.memory.swapTotal).toBe(0);
    expect((await nodeRow(id)).agent_version).toBe('0.2.6');
  });

  it('keeps the stored swap total when the report omits it', async () => {
    const { id, secret } = await seedNode(t);
    await post(secret, agentStatic());
    const s = agentStatic() as Record<string, unknown>;
    s.memory = { total: 32 * 1024 ** 3 };
    await post(secret, s);
    expect(parseStaticInfo((await nodeRow(id)).static_json).memory.swapTotal).toBe(2 * 1024 ** 3);
  });

  it('accepts the agent encoding of absent disk lists (null) and no RAID arrays', async () => {
    const { secret } = await seedNode(t);
    const s = agentStatic();
    const raw = JSON.stringify({
      ...s,
      disk: { physical: null, logical: null, filesystems: null, base_io: null },
      raid: { supported: false, available: false, arrays: null },
    });
    expect((await post(secret, undefined, raw)).statusCode).toBe(200);
  });

  it('updates the front view of a reporting node (system, cpu and memory facts)', async () => {
    const { id, secret } = await seedNode(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': secret },
      payload: JSON.stringify(agentReport()),
    });
    expect(t.deps.front.view(id)?.system.os_family).toBe('unknown');
    await post(secret, agentStatic({ hostname: 'web-01' }));
    const view = t.deps.front.view(id);
    expect(view?.node.title).toBe('web-01');
    expect(view?.system).toMatchObject({ os_family: 'linux', platform: 'debian', arch: 'x86_64' });
    expect(view?.cpu).toMatchObject({
      model_name: 'Intel(R) Xeon(R) E-2276G CPU @ 3.80GHz',
      cores_logical: 12,
      sockets: 1,
    });
    expect(view?.memory.total_bytes).toBe(32 * 1024 ** 3);
    expect(view?.disk.mounts.find((m) => m.mountpoint === '/srv/data')?.fs_type).toBe('ext4');
  });

  it('renders the reports after a static report with its facts (the ingest side follows)', async () => {
    const { id, secret } = await seedNode(t);
    const metrics = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { 'content-type': 'application/json', 'x-node-secret': secret },
        payload: JSON.stringify(agentReport()),
      });
    await metrics();
    t.clock.advance(3000);
    await metrics();
    const s = agentStatic({ hostname: 'db-01' });
    await post(secret, { ...s, system: { ...s.system, platform: 'ubuntu', arch: 'aarch64' } });
    t.clock.advance(3000);
    expect((await metrics()).statusCode).toBe(200);
    expect(t.deps.front.view(id)?.system).toMatchObject({ platform: 'ubuntu', arch: 'aarch64' });
    await post(secret, { ...s, system: { ...s.system, platform: 'rocky' } });
    t.clock.advance(3000);
    await metrics();
    expect(t.deps.front.view(id)?.system.platform).toBe('rocky');
  });

  it('ignores unknown fields', async () => {
    const { secret } = await seedNode(t);
    const s = { ...agentStatic(), virt: { kind: 'pve' }, extra: [1, 2, 3] };
    expect((await post(secret, s)).statusCode).toBe(200);
  });

  it('503 service_unavailable when the store fails', async () => {
    const { secret } = await seedNode(t);
    await t.sql.exec('ALTER TABLE nodes RENAME TO nodes_elsewhere');
    try {
      const res = await post(secret, agentStatic());
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable' });
    } finally {
      await t.sql.exec('ALTER TABLE nodes_elsewhere RENAME TO nodes');
    }
  });

  it('401 without a valid node secret', async () => {
    await seedNode(t);
    expect((await post(null, agentStatic())).statusCode).toBe(401);
    const res = await post('wrong-secret', agentStatic());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  describe('400 invalid_request', () => {
    const raw = (from: string, to: string) => JSON.stringify(agentStatic()).replace(from, to);
    it.each([
      ['a core count above int16', raw('"cores_logical":12', '"cores_logical":32768')],
      [
        'an interval above int32',
        raw('"report_interval_seconds":3', '"report_interval_seconds":2147483648'),
      ],
      ['memory above int64', raw(`"total":${32 * 1024 ** 3}`, '"total":9223372036854775808')],
      ['a string interval', raw('"report_interval_seconds":3', '"report_interval_seconds":"3"')],
      ['an unreadable timestamp', raw('"timestamp":"', '"timestamp":"t')],
    ])('for %s', async (_name, body) => {
      const { id, secret } = await seedNode(t);
      const res = await post(secret, undefined, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_request' });
      expect((await nodeRow(id)).static_json).toBeNull();
    });
  });

  describe('422 invalid_static_payload', () => {
    type S = ReturnType<typeof agentStatic> & Record<string, unknown>;
    it.each<[string, (s: S) => void]>([
      ['a bad version', (s) => (s.version = 'v0.2.5')],
      ['a missing timestamp', (s) => delete (s as Record<string, unknown>).timestamp],
      ['the zero timestamp', (s) => (s.timestamp = '0001-01-01T00:00:00Z')],
      ['a zero interval', (s) => (s.report_interval_seconds = 0)],
      ['a negative interval', (s) => (s.report_interval_seconds = -3)],
      ['a negative core count', (s) => (s.cpu.info.cores_physical = -1)],
      ['negative memory', (s) => (s.memory.total = -1)],
      ['negative swap', (s) => (s.memory.swap_total = -1)],
      ['a blank hostname', (s) => (s.system.hostname = ' ')],
      ['a hostname over 255 characters', (s) => (s.system.hostname = 'h'.repeat(256))],
      ['a blank OS', (s) => (s.system.os = '')],
      ['an OS over 32 characters', (s) => (s.system.os = 'o'.repeat(33))],
      ['an arch over 32 characters', (s) => (s.system.arch = 'a'.repeat(33))],
      ['a kernel version over 255 characters', (s) => (s.system.kernel_version = 'k'.repeat(256))],
      [
        'a missing platform version',
        (s) => delete (s.system as Record<string, unknown>).platform_version,
      ],
      ['a negative disk capacity', (s) => (s.disk.logical[0]!.total = -1)],
      ['a blank logical disk name', (s) => (s.disk.logical[0]!.name = '')],
      [
        'a filesystem type over 32 characters',
        (s) => (s.disk.filesystems[0]!.fs_type = 'f'.repeat(33)),
      ],
      ['negative inodes', (s) => (s.disk.filesystems[0]!.inodes_total = -1)],
      ['a disk ref over 320 characters', (s) => (s.disk.physical[0]!.ref = 'r'.repeat(321))],
      ['a negative RAID device count', (s) => (s.raid.arrays[0]!.devices = -2)],
    ])('for %s', async (_name, edit) => {
      const { id, secret } = await seedNode(t);
      const s = structuredClone(agentStatic()) as S;
      edit(s);
      const res = await post(secret, s);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'invalid_static_payload' });
      expect((await nodeRow(id)).static_json).toBeNull();
    });
  });
});

describe('POST /api/node/static with a gzip body', () => {
  const postEncoded = (secret: string, payload: Buffer, coding = 'gzip') =>
    t.app.inject({
      method: 'POST',
      url: '/api/node/static',
      headers: {
        'content-type': 'application/json',
        'content-encoding': coding,
        'x-node-secret': secret,
      },
      payload,
    });

  it('decodes it, stores the facts and lists gzip in Accept-Encoding', async () => {
    const { id, secret } = await seedNode(t);
    const res = await postEncoded(secret, gzipSync(JSON.stringify(agentStatic())));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('ok');
    expect(res.headers['accept-encoding']).toBe('gzip');
    expect((await nodeRow(id)).hostname).toBe('web-01.example.net');
  });

  it.each([
    ['not gzip', Buffer.from('{}'), 400, 'invalid_request'],
    [
      'decoding past the 1 MiB limit',
      gzipSync(Buffer.alloc(1024 * 1024 + 1, 32)),
      413,
      'body_too_large',
    ],
    ['gzip of a duplicate key', gzipSync('{"version":"1","version":"2"}'), 400, 'invalid_request'],
  ])('refuses a body %s', async (_name, payload, status, code) => {
    const { id, secret } = await seedNode(t);
    const res = await postEncoded(secret, payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect((await nodeRow(id)).static_json).toBeNull();
  });

  it('refuses any other content coding with 415, naming gzip', async () => {
    const { secret } = await seedNode(t);
    const res = await postEncoded(secret, Buffer.from(JSON.stringify(agentStatic())), 'br');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.headers['accept-encoding']).toBe('gzip');
  });
});
