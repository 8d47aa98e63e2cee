import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';
import { ByteWriter } from '../../src/store/sqlite/metrics-codec.js';
import type { HistoryQuery, HistoryRepo, MetricsWrite } from '../../src/store/ports.js';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';
import { agentReport } from '../support/agent-payloads.js';
import { historySample } from '../../src/domain/ingest/history-sample.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import { decodeRollup, decodeRollupHost } from '../../src/store/sqlite/rollup-codec.js';

const H = 3_600_000;
const M15 = 900_000;
/** A 1-hour-aligned start. */
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const host = (m: string) => HOST_METRICS.indexOf(m as (typeof HOST_METRICS)[number]);

let store: SqliteStore;
let engine: MetricsEngine;
let history: HistoryRepo;

beforeEach(() => {
  ({ store, engine, history } = openHistoryStore());
});
afterEach(async () => store.close());

function finish<T>(gen: Generator<void, T>): T {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

/** A report at `at` whose CPU usage and nvme0n1 read rate are the given values. */
function write(nodeId: number, at: number, cpu: number, readBps = 1000): MetricsWrite {
  const w = metricsWrite(nodeId, at, { deadline: Infinity });
  w.host[host('cpu.usage_ratio')] = cpu;
  const io = w.devices.find((d) => d.kind === 'io' && d.name === 'nvme0n1');
  if (io) io.values[0] = readBps;
  return w;
}

const query = (over: Partial<HistoryQuery>): Promise<Array<{ ts: number; value: number }>> =>
  history.points({
    nodeId: 1,
    metric: 'cpu.usage_ratio',
    source: 'raw',
    from: T0,
    to: T0 + H,
    stepMs: 6000,
    agg: 'avg',
    ...over,
  });

describe('raw history', () => {
  beforeEach(() => {
    // 0.10, 0.20, 0.30, 0.40 at 3 s spacing: two 6-second buckets.
    engine.commitBatch([0.1, 0.2, 0.3, 0.4].map((v, i) => write(1, T0 + i * 3000, v)));
    engine.commitBatch([write(2, T0, 0.9)]);
  });

  it.each([
    ['avg', [0.15, 0.35]],
    ['max', [0.2, 0.4]],
    ['min', [0.1, 0.3]],
    ['last', [0.2, 0.4]],
  ] as const)('buckets by step with agg=%s, ascending, one node only', async (agg, values) => {
    const points = await query({ agg });
    expect(points.map((p) => p.ts)).toEqual([T0, T0 + 6000]);
    points.forEach((p, i) => expect(p.value).toBeCloseTo(values[i] as number, 6));
  });

  it('returns only buckets holding data inside [from, to)', async () => {
    expect(await query({ from: T0 + 6000, to: T0 + 9000 })).toHaveLength(1);
    expect(await query({ from: T0 + H, to: T0 + 2 * H })).toEqual([]);
  });

  it('keeps every host metric readable (PSI, temperatures, counts, rates)', async () => {
    for (const metric of HOST_METRICS) {
      const points = await query({ metric, stepMs: 60_000 });
      expect(points, metric).toHaveLength(1);
      expect(Number.isFinite(points[0]!.value), metric).toBe(true);
    }
    const psi = await query({ metric: 'pressure.io.some_avg60', stepMs: 60_000 });
    expect(psi[0]!.value).toBeCloseTo(2.75, 2);
    const temp = await query({ metric: 'cpu.temp_c', stepMs: 60_000, agg: 'max' });
    expect(temp[0]!.value).toBeCloseTo(54, 1);
  });

  it('has no points for a metric the node did not report', async () => {
    const w = write(3, T0, 0.5);
    w.host[host('cpu.temp_c')] = null;
    engine.commitBatch([w]);
    expect(await query({ nodeId: 3, metric: 'cpu.temp_c' })).toEqual([]);
  });

  it('stores CPU iowait and steal ratios from the reported time split', async () => {
    const iowait = await query({ metric: 'cpu.iowait_ratio', stepMs: 60_000 });
    expect(iowait).toHaveLength(1);
    expect(iowait[0]!.value).toBeCloseTo(0.021, 4);
    const steal = await query({ metric: 'cpu.steal_ratio', stepMs: 60_000, agg: 'max' });
    expect(steal[0]!.value).toBeCloseTo(0.004, 4);
  });

  it('has no iowait or steal points for a report without the CPU time split', async () => {
    const v = validateMetricsReport(agentReport());
    delete v.metrics.cpu?.times;
    const sample = historySample(v.metrics);
    expect(sample.host[host('cpu.iowait_ratio')]).toBeNull();
    expect(sample.host[host('cpu.steal_ratio')]).toBeNull();
    const w = write(3, T0, 0.5);
    w.host = sample.host;
    engine.commitBatch([w]);
    expect(await query({ nodeId: 3, metric: 'cpu.iowait_ratio' })).toEqual([]);
    expect(await query({ nodeId: 3, metric: 'cpu.usage_ratio' })).toHaveLength(1);
  });

  it('finds disk IO by name or ref, disk usage by mountpoint, temperature by path', async () => {
    const byName = await query({ metric: 'disk.read_bps', device: 'nvme0n1', stepMs: 60_000 });
    const byRef = await query({
      metric: 'disk.read_bps',
      device: 'nvme:eui.0025388b91b1c2d3',
      stepMs: 60_000,
    });
    expect(byName).toEqual(byRef);
    expect(byName[0]!.value).toBe(1000);
    const used = await query({ metric: 'disk.used_ratio', device: '/srv/data', stepMs: 60_000 });
    expect(used[0]!.value).toBeCloseTo(0.5397, 4);
    const sda = await query({ metric: 'disk.temp_c', device: '/dev/sda', stepMs: 60_000 });
    expect(sda[0]!.value).toBe(33);
    expect(await query({ metric: 'disk.read_bps', device: 'nope', stepMs: 60_000 })).toEqual([]);
  });

  it('aggregates every physical disk for disk.temp_c without a device', async () => {
    const all = await query({ metric: 'disk.temp_c', stepMs: 60_000, agg: 'max' });
    expect(all[0]!.value).toBe(41);
    const min = await query({ metric: 'disk.temp_c', stepMs: 60_000, agg: 'min' });
    expect(min[0]!.value).toBe(33);
  });

  it('serves interface counters for traffic accounting, in receive order', async () => {
    const samples = await history.nicSamples(1, T0, T0 + H);
    expect(samples).toHaveLength(12);
    expect(samples[0]).toEqual({
      receivedAt: T0,
      iface: 'eth0',
      bytesRecv: 918_273_645_123,
      bytesSent: 123_456_789_012,
      recvBps: 125_000,
      sentBps: 48_000,
    });
    expect(samples.map((s) => s.receivedAt)).toEqual([...samples.map((s) => s.receivedAt)].sort());
  });

  it('lists the devices of a node by kind', async () => {
    const ifaces = await history.devices(1, 'iface');
    expect(ifaces.map((d) => d.name).sort()).toEqual(['docker0', 'eth0', 'eth1']);
  });
});

describe('rollups (15 minutes, 1 hour) and re-aggregation', () => {
  /** Two hours of reports every 60 s with varying CPU; values are exact in storage. */
  beforeEach(() => {
    const writes: MetricsWrite[] = [];
    for (let i = 0; i < 120; i++) writes.push(write(1, T0 + i * 60_000, (i % 7) / 10, i * 100));
    engine.commitBatch(writes);
  });

  async function rawBuckets(stepMs: number, agg: HistoryQuery['agg'], metric = 'cpu.usage_ratio') {
    return query({
      metric,
      stepMs,
      agg,
      to: T0 + 2 * H,
      ...(metric.startsWith('disk') ? { device: 'nvme0n1' } : {}),
    });
  }

  it('materialises closed buckets, is idempotent, and keeps a watermark', () => {
    const first = finish(rollupTask(store.raw, T0 + 2 * H + 60_000));
    expect(first).toMatchObject({ watermark15m: T0 + 2 * H, watermark1h: T0 + 2 * H, buckets: 8 });
    const again = finish(rollupTask(store.raw, T0 + 2 * H + 60_000));
    expect(again.buckets).toBe(0);
    expect(store.raw.prepare('SELECT count(*) AS n FROM metrics_15m').get()).toEqual({ n: 8 });
    expect(store.raw.prepare('SELECT count(*) AS n FROM metrics_1h').get()).toEqual({ n: 2 });
  });

  it('waits for the grace period before closing a bucket', () => {
    const r = finish(rollupTask(store.raw, T0 + M15 + 5000));
    expect(r.watermark15m).toBe(undefined);
    expect(finish(rollupTask(store.raw, T0 + M15 + 10_000)).watermark15m).toBe(T0 + M15);
  });

  it.each(['avg', 'max', 'min', 'last'] as const)(
    '15-minute, 30-minute (15d) and 1-hour buckets equal raw aggregation (%s)',
    async (agg) => {
      finish(rollupTask(store.raw, T0 + 3 * H));
      for (const [source, stepMs] of [
        ['15m', M15],
        ['15m', 2 * M15],
        ['1h', H],
      ] as const) {
        for (const metric of ['cpu.usage_ratio', 'disk.read_bps']) {
          const rolled = await query({
            metric,
            source,
            stepMs,
            agg,
            to: T0 + 2 * H,
            ...(metric === 'disk.read_bps' ? { device: 'nvme0n1' } : {}),
          });
          const raw = await rawBuckets(stepMs, agg, metric);
          expect(
            rolled.map((p) => p.ts),
            `${source}/${stepMs}/${metric}`,
          ).toEqual(raw.map((p) => p.ts));
          rolled.forEach((p, i) => expect(p.value).toBeCloseTo(raw[i]!.value, 9));
        }
      }
    },
  );

  it('includes the newest raw samples after the last materialised bucket', async () => {
    finish(rollupTask(store.raw, T0 + H + 10_000));
    const rolled = await query({ source: '15m', stepMs: M15, to: T0 + 2 * H });
    expect(rolled).toHaveLength(8);
    const raw = await rawBuckets(M15, 'avg');
    rolled.forEach((p, i) => expect(p.value).toBeCloseTo(raw[i]!.value, 9));
    const hourly = await query({ source: '1h', stepMs: H, to: T0 + 2 * H });
    expect(hourly).toHaveLength(2);
  });

  it('rolls up iowait and steal like CPU usage', async () => {
    finish(rollupTask(store.raw, T0 + 3 * H));
    const rolled = await query({
      metric: 'cpu.steal_ratio',
      source: '1h',
      stepMs: H,
      to: T0 + 2 * H,
    });
    expect(rolled).toHaveLength(2);
    rolled.forEach((p) => expect(p.value).toBeCloseTo(0.004, 6));
  });

  it('reads a rollup bucket written before iowait and steal existed as having no value', async () => {
    finish(rollupTask(store.raw, T0 + 3 * H));
    const blobs = store.raw.prepare('SELECT id, data FROM metrics_15m').all() as Array<{
      id: number;
      data: Buffer;
    }>;
    // Rewrite every bucket in the older layout: the host series count without the last two.
    const old = HOST_METRICS.length - 2;
    for (const b of blobs) {
      const rec = decodeRollup(b.data);
      const w = new ByteWriter();
      w.varint(old);
      for (const a of rec.host.slice(0, old)) {
        w.varint(a.count);
        if (a.count > 0) [a.sum, a.min, a.max, a.last].forEach((x) => w.f64(x));
      }
      for (let k = 0; k < 4; k++) w.varint(0);
      store.raw.prepare('UPDATE metrics_15m SET data = ? WHERE id = ?').run(w.finish(), b.id);
      expect(decodeRollupHost(w.finish(), host('cpu.iowait_ratio'))).toBeUndefined();
    }
    const args = { source: '15m', stepMs: M15, from: T0, to: T0 + H } as const;
    expect(await query({ ...args, metric: 'cpu.iowait_ratio' })).toEqual([]);
    expect(await query({ ...args, metric: 'cpu.usage_ratio' })).toHaveLength(4);
  });

  it('weights re-aggregated averages by sample count', async () => {
    // A bucket with one sample of 1.0 next to one with many samples of 0.0.
    engine.commitBatch([write(2, T0 + 2 * H + 1000, 1)]);
    engine.commitBatch(
      Array.from({ length: 9 }, (_, i) => write(2, T0 + 2 * H + M15 + i * 60_000, 0)),
    );
    finish(rollupTask(store.raw, T0 + 3 * H));
    const [p] = await query({
      nodeId: 2,
      source: '15m',
      stepMs: 2 * M15,
      from: T0 + 2 * H,
      to: T0 + 3 * H,
    });
    expect(p!.value).toBeCloseTo(0.1, 9);
  });
});
