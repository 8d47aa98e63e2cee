import { beforeEach, describe, expect, it } from 'vitest';
import { FrontState } from '../../../src/domain/front/front-state.js';
import { renderBodyJson, renderFacts } from '../../../src/domain/front/render.js';
import { runtimeView } from '../../../src/domain/front/runtime-view.js';
import { pressureView, smartView, thermalView } from '../../../src/domain/front/side-views.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import type { CurrentRow, FrontRepo, NodeFrontRow } from '../../../src/store/ports.js';
import { agentReport, windowsAgentReport } from '../../support/agent-payloads.js';
import { frontNodeRow } from '../../support/front-rows.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

class FakeRepo implements FrontRepo {
  nodes = new Map<number, NodeFrontRow>();
  currents = new Map<number, CurrentRow>();
  async liveNodes(ids?: readonly number[]) {
    return [...this.nodes.values()].filter((n) => !ids || ids.includes(n.id));
  }
  async currentRows(ids?: readonly number[]) {
    return [...this.currents.values()].filter((c) => !ids || ids.includes(c.nodeId));
  }
}

const row = frontNodeRow;

/** What ingest hands the front state for one report. */
function accepted(receivedAt: number, report: object = agentReport()) {
  const v = validateMetricsReport(report);
  const m = v.metrics;
  const json = (x: unknown) => (x === undefined ? null : JSON.stringify(x));
  return {
    runtime: runtimeView(m, receivedAt, v.reportedAt, (report as { timestamp: string }).timestamp),
    side: {
      smartJson: json(smartView(m.disk?.smart)),
      thermalJson: json(thermalView(m.thermal)),
      pressureJson: json(pressureView(m.pressure)),
    },
  };
}

let repo: FakeRepo;
let front: FrontState;
let warnings: string[];

beforeEach(async () => {
  repo = new FakeRepo();
  warnings = [];
  front = new FrontState({ repo, staleAfterSec: 17, warn: (msg) => warnings.push(msg) });
  repo.nodes.set(1, row(1, { tags: '["prod"," eu ","prod"]', displayOrder: 5 }));
  await front.load();
});

describe('front view of a node (reference §4.1)', () => {
  it('renders every section of a full Linux report', () => {
    const a = accepted(T0);
    front.apply(1, a.runtime, a.side);
    const v = front.view(1)!;
    expect(v.node).toEqual({
      id: '1',
      order: 5,
      title: 'node-1',
      search_text: ['node-1', 'linux', 'debian', 'x86_64', 'prod', 'eu'],
      tags: ['prod', 'eu'],
    });
    expect(v.observation).toEqual({
      received_at: '2026-11-21T12:00:00Z',
      observed_at: '2026-11-21T11:00:00Z',
      sent_at: '2026-11-21T11:00:00.000Z',
      stale_after_sec: 17,
    });
    expect(v.system).toEqual({
      os_family: 'linux',
      platform: 'debian',
      platform_version: '12.8',
      kernel_version: '6.1.0',
      arch: 'x86_64',
      uptime_text: '12 days, 3:44:05',
    });
    expect(v.cpu).toMatchObject({
      load: { l1: 1.25, l5: 1.1, l15: 0.95 },
      model_name: 'Intel(R) Xeon(R) E-2276G CPU @ 3.80GHz',
      cores_physical: 6,
      cores_logical: 12,
      sockets: 1,
    });
    // Runtime reports carry no totals: the static ones fill in.
    expect(v.memory.total_bytes).toBe(32 * 1024 ** 3);
    expect(v.memory.swap_total_bytes).toBe(2 * 1024 ** 3);
    expect(v.disk.mounts.map((m) => [m.mountpoint, m.fs_type])).toEqual([
      ['/srv/data', 'ext4'],
      ['lvm:vg0/backup', ''],
      ['mount:/', ''],
    ]);
    expect(v.disk.mounts[0]).toMatchObject({ total_bytes: 3726 * 1024 ** 3, used_ratio: 0.5397 });
    // used + free when the logical disk has no total.
    expect(v.disk.mounts[1]!.total_bytes).toBe(500 * 1024 ** 3);
    expect(Object.keys(v.disk.io.by_device ?? {}).sort()).toEqual([
      'lvm:vg0/backup',
      'nvme:eui.0025388b91b1c2d3',
      'raid:md0',
    ]);
    // Only role=primary devices are summed.
    expect(v.disk.io.total.write_bps).toBe(409_600 * 2);
    expect(v.disk.temperature_devices).toEqual(['nvme0n1', 'sda', 'sdb']);
    expect(v.network.total.recv_bps).toBe(125_000 + 120 + 0);
    expect(v.network.by_interface?.map((i) => i.name)).toEqual(['eth0', 'eth1', 'docker0']);
    expect(v.processes).toEqual({ count: 312 });
    expect(v.connections).toEqual({ tcp: 87, udp: 14 });
    expect(v.raid?.arrays[0]).toMatchObject({
      name: 'md0',
      health: 'healthy',
      sync_status: 'idle',
    });
    expect(v.disk.smart?.devices).toHaveLength(4);
    expect(v.disk.smart?.devices[3]).toEqual({
      name: 'md0',
      device_path: '/dev/md0',
      source: 'smartctl',
      status: 'unsupported',
      exit_status: 1,
    });
    expect(v.disk.smart?.updated_at).toBe('2026-11-21T10:58:00Z');
    // Sensors without a valid temperature are dropped.
    expect(v.thermal?.sensors.map((s) => s.name)).toEqual([
      'Package id 0',
      'Core 0',
      'Core 1',
      'acpitz',
      'Composite',
    ]);
    expect(v.pressure?.io?.some).toEqual({
      avg10: 2.75,
      avg60: 2.75,
      avg300: 2.48,
      total: 123456789,
    });
  });

  it('serves the same view as bytes without copying', () => {
    const a = accepted(T0);
    front.apply(1, a.runtime, a.side);
    expect(front.jsonBytes(1)?.toString('utf8')).toBe(front.json(1));
    expect(front.jsonBytes(2)).toBeUndefined();
  });

  it('omits what a Windows node does not report', () => {
    const a = accepted(T0, windowsAgentReport());
    front.apply(1, a.runtime, a.side);
    const v = front.view(1)!;
    expect(v.raid).toBeUndefined();
    expect(v.pressure).toBeUndefined();
    expect(v.disk.temperature_devices).toBeUndefined();
    expect(v.disk.smart).toEqual({ status: 'no_tool', devices: [] });
    expect(v.thermal).toEqual({ status: 'unsupported', sensors: [] });
  });

  it('classifies the OS family from the stored OS', async () => {
    for (const [os, family] of [
      ['Windows Server 2022', 'windows'],
      ['darwin', 'darwin'],
      ['macOS', 'darwin'],
      ['freebsd', 'unknown'],
    ]) {
      repo.nodes.set(1, row(1, { os }));
      await front.onNodeEvent({ type: 'updated', nodeId: 1 });
      await front.refreshNode(1);
      const a = accepted(T0);
      front.apply(1, a.runtime, a.side);
      expect(front.view(1)?.system.os_family, os).toBe(family);
    }
  });
});

describe('side caches and receive order', () => {
  it('re-attaches SMART, thermal and pressure only for the same received_at', () => {
    const first = accepted(T0);
    front.apply(1, first.runtime, first.side);
    const next = accepted(T0 + 3000, agentReport({ seq: 1 }));
    front.apply(1, next.runtime, { smartJson: null, thermalJson: null, pressureJson: null });
    const v = front.view(1)!;
    expect(v.observation.received_at).toBe('2026-11-21T12:00:03Z');
    expect(v.disk.smart).toBeUndefined();
    expect(v.thermal).toBeUndefined();
    expect(v.pressure).toBeUndefined();
  });

  it('never replaces a newer view with an older one', () => {
    const newer = accepted(T0 + 3000, agentReport({ seq: 5 }));
    expect(front.apply(1, newer.runtime, newer.side)).toBe(true);
    const older = accepted(T0, agentReport({ seq: 1 }));
    expect(front.apply(1, older.runtime, older.side)).toBe(false);
    expect(front.receivedAt(1)).toBe(T0 + 3000);
  });

  it('ignores reports of unknown (deleted) nodes', () => {
    const a = accepted(T0);
    expect(front.apply(99, a.runtime, a.side)).toBe(false);
    expect(front.json(99)).toBeUndefined();
  });
});

describe('front list and node changes', () => {
  beforeEach(async () => {
    repo.nodes.set(2, row(2, { name: 'alpha', displayOrder: 5, guestVisible: true }));
    repo.nodes.set(3, row(3, { name: 'zulu', displayOrder: 9 }));
    repo.nodes.set(4, row(4, { name: 'never-reported' }));
    await front.load();
    for (const id of [1, 2, 3]) {
      const a = accepted(T0);
      front.apply(id, a.runtime, a.side);
    }
  });

  it('lists reporting nodes by order desc, title, id; not nodes without a report', () => {
    expect(front.list()).toEqual([
      { nodeId: 3, guestVisible: false },
      { nodeId: 2, guestVisible: true },
      { nodeId: 1, guestVisible: false },
    ]);
  });

  it('gives each listed view as an object, in list order', () => {
    const titles = front.list().map((i) => front.view(i.nodeId)?.node.title);
    expect(titles).toEqual(['zulu', 'alpha', 'node-1']);
  });

  it('follows renames, reordering and deletion', async () => {
    const version = front.version;
    repo.nodes.set(1, row(1, { name: 'aardvark', displayOrder: 5 }));
    await front.onNodeEvent({ type: 'updated', nodeId: 1 });
    expect(front.view(1)?.node.title).toBe('aardvark');
    expect(front.list()[1]).toEqual({ nodeId: 1, guestVisible: false });
    expect(front.version).toBeGreaterThan(version);
    repo.nodes.set(2, row(2, { name: 'alpha', displayOrder: 100, guestVisible: true }));
    await front.onNodeEvent({ type: 'reordered' });
    expect(front.list()[0]?.nodeId).toBe(2);
    repo.nodes.delete(3);
    await front.onNodeEvent({ type: 'deleted', nodeId: 3 });
    expect(front.list().map((i) => i.nodeId)).not.toContain(3);
    expect(front.json(3)).toBeUndefined();
  });

  it('picks up a node created after start on its first report', async () => {
    repo.nodes.set(5, row(5, { name: 'fresh' }));
    expect(await front.ensureNode(5)).toMatchObject({ id: 5, name: 'fresh' });
    expect(await front.ensureNode(6)).toBeUndefined();
  });

  it('restores current projections from the store at start', async () => {
    const a = accepted(T0 + 9000);
    repo.currents.set(2, {
      nodeId: 2,
      receivedAt: T0 + 9000,
      reportedAt: T0,
      firstReceivedAt: T0,
      runtimeJson: JSON.stringify(a.runtime),
      ...a.side,
    });
    repo.currents.set(1, {
      nodeId: 1,
      receivedAt: T0,
      reportedAt: T0,
      firstReceivedAt: T0,
      runtimeJson: '{broken',
      smartJson: null,
      thermalJson: null,
      pressureJson: null,
    });
    const fresh = new FrontState({ repo, staleAfterSec: 17, warn: (m) => warnings.push(m) });
    await fresh.load();
    expect(fresh.view(2)?.observation.received_at).toBe('2026-11-21T12:00:09Z');
    expect(fresh.view(2)?.disk.smart?.status).toBe('ok');
    // An unreadable projection shows no view: it leaves the list when its view is first read.
    expect(fresh.json(1)).toBeUndefined();
    expect(fresh.list().map((i) => i.nodeId)).toEqual([2]);
    expect(warnings.some((w) => w.includes('unreadable'))).toBe(true);
  });

  it('renders stored projections when first read, or by renderPending, as a report would', async () => {
    const stored = (id: number, receivedAt: number) => {
      const a = accepted(receivedAt);
      repo.currents.set(id, {
        nodeId: id,
        receivedAt,
        reportedAt: receivedAt,
        firstReceivedAt: T0,
        runtimeJson: JSON.stringify(a.runtime),
        ...a.side,
      });
      return a;
    };
    const a1 = stored(1, T0 + 3000);
    stored(2, T0 + 3000);
    stored(3, T0 + 3000);
    const fresh = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await fresh.load();
    // Listed with their receive times, nothing rendered yet.
    expect(fresh.list().map((i) => i.nodeId)).toEqual([3, 2, 1]);
    expect(fresh.receivedAt(2)).toBe(T0 + 3000);
    expect(fresh.viewMemory().liveBytes).toBe(0);
    expect(fresh.renderPending(1)).toBe(2);
    expect(fresh.renderPending(10)).toBe(0);
    expect(fresh.viewMemory().liveBytes).toBeGreaterThan(0);
    // The same bytes as the report rendered at ingest.
    const facts = renderFacts(fresh.meta(1)!);
    const eager = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await eager.load();
    eager.applyRendered(1, T0 + 3000, renderBodyJson(facts, a1.runtime, a1.side, 17));
    expect(fresh.json(1)).toBe(eager.json(1));
  });

  it('keeps an unrendered stored projection against an older report, not against a newer one', async () => {
    const a = accepted(T0 + 9000);
    repo.currents.set(1, {
      nodeId: 1,
      receivedAt: T0 + 9000,
      reportedAt: T0 + 9000,
      firstReceivedAt: T0,
      runtimeJson: JSON.stringify(a.runtime),
      ...a.side,
    });
    const fresh = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await fresh.load();
    const older = accepted(T0 + 6000);
    expect(fresh.apply(1, older.runtime, older.side)).toBe(false);
    expect(fresh.view(1)?.observation.received_at).toBe('2026-11-21T12:00:09Z');
    const fresh2 = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await fresh2.load();
    const newer = accepted(T0 + 12_000);
    expect(fresh2.apply(1, newer.runtime, newer.side)).toBe(true);
    expect(fresh2.renderPending(10)).toBe(0);
    expect(fresh2.view(1)?.observation.received_at).toBe('2026-11-21T12:00:12Z');
  });
});

describe('stored tags', () => {
  it.each([
    ['not JSON', '{oops', []],
    ['not a list', '{"a":1}', []],
    ['invalid items', '["ok", 5, "", "bad\\u0007", "' + 'x'.repeat(65) + '", "ok"]', ['ok']],
    [
      'too many',
      JSON.stringify(Array.from({ length: 40 }, (_, i) => `t${i}`)),
      Array.from({ length: 32 }, (_, i) => `t${i}`),
    ],
  ])('%s: shows the valid ones, warns, keeps the node', async (_name, tags, expected) => {
    repo.nodes.set(1, row(1, { tags }));
    await front.onNodeEvent({ type: 'updated', nodeId: 1 });
    const a = accepted(T0);
    front.apply(1, a.runtime, a.side);
    const v = front.view(1)!;
    expect(v.node.tags ?? []).toEqual(expected);
    expect(v.cpu.usage_ratio).toBeGreaterThan(0);
    expect(warnings.length).toBeGreaterThan(0);
  });
});

describe('render facts for the ingest side', () => {
  it('tells what views are rendered from at load, on changes only, and when a node goes', async () => {
    const told: Array<[number, string | null]> = [];
    const f = new FrontState({
      repo,
      staleAfterSec: 17,
      warn: () => {},
      onFacts: (id, facts) => told.push([id, facts && facts.platform]),
    });
    await f.load();
    expect(told).toEqual([[1, 'debian']]);
    repo.nodes.set(1, row(1, { name: 'renamed' }));
    await f.onNodeEvent({ type: 'updated', nodeId: 1 });
    expect(told).toHaveLength(1);
    repo.nodes.set(1, row(1, { platform: 'ubuntu' }));
    await f.onNodeEvent({ type: 'updated', nodeId: 1 });
    expect(told.at(-1)).toEqual([1, 'ubuntu']);
    await f.onNodeEvent({ type: 'deleted', nodeId: 1 });
    expect(told.at(-1)).toEqual([1, null]);
  });

  it('installs a body rendered elsewhere exactly like one it renders itself', () => {
    const a = accepted(T0);
    front.apply(1, a.runtime, a.side);
    const own = front.json(1);
    const other = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    return other.load().then(() => {
      const facts = renderFacts(other.meta(1)!);
      expect(other.applyRendered(1, T0, renderBodyJson(facts, a.runtime, a.side, 17))).toBe(true);
      expect(other.json(1)).toBe(own);
      expect(other.applyRendered(1, T0 - 1, '"x":1')).toBe(false);
    });
  });
});
