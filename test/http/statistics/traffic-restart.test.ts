import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, tempHome, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import { factsForWindow, type CounterSample } from '../../../src/domain/traffic/facts.js';

/**
 * On SQLite each interface's open 5-minute bucket is kept on its cursor row and goes to
 * `traffic_5m` once, when a later sample closes it (docs/ingest-disk-writes.md, "Facts written
 * once per bucket"). A server stopped and started again mid-bucket must then give every read
 * the same figures as one that ran through, and those figures must be the facts a rebuild from
 * the stored counters computes.
 */

const NOV1 = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
/** Four days and a bit of samples, so daily figures, P95 and the forecast have data. */
const END = NOV1 + 4 * DAY + 137_000;
const IFACES = ['eth0', 'eth1'] as const;

interface Sample {
  at: number;
  counters: Record<(typeof IFACES)[number], { rx: number; tx: number }>;
}

/**
 * Every 37 s (so samples fall anywhere in a bucket), a rate that changes by the hour, a counter
 * reset on eth1 and a 20-minute silence (a gap) on day 2.
 */
function samples(): Sample[] {
  const out: Sample[] = [];
  let rx0 = 0;
  let tx0 = 0;
  let rx1 = 5_000;
  let tx1 = 9_000;
  let prev = NOV1;
  for (let at = NOV1; at < END; at += 37_000) {
    if (at > NOV1 + 2 * DAY && at < NOV1 + 2 * DAY + 1_200_000) continue;
    const s = (at - prev) / 1000;
    const hour = Math.floor((at - NOV1) / 3_600_000);
    rx0 += Math.round(s * (1_000 + (hour % 7) * 300));
    tx0 += Math.round(s * (400 + (hour % 5) * 900));
    rx1 += Math.round(s * 50);
    tx1 += Math.round(s * 20);
    if (at >= NOV1 + DAY + 600_000 && at < NOV1 + DAY + 637_000) {
      rx1 = 10;
      tx1 = 10;
    }
    out.push({ at, counters: { eth0: { rx: rx0, tx: tx0 }, eth1: { rx: rx1, tx: tx1 } } });
    prev = at;
  }
  return out;
}

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function start(file: string): Promise<{ t: TestApp; nodeId: number }> {
  const t = await buildTestApp({ DASH_DATABASE_URL: `sqlite:${file}` });
  opened.push(t);
  await t.deps.scheduler.stop();
  const nodes = await t.deps.store.nodes.list();
  const nodeId = nodes[0]?.id ?? (await seedNode(t, { name: 'web-01' })).id;
  if (nodes.length === 0) {
    await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
    await t.deps.store.nodes.setTrafficP95([nodeId], true, NOV1);
  }
  return { t, nodeId };
}

async function stop(t: TestApp): Promise<void> {
  opened.splice(opened.indexOf(t), 1);
  await t.close();
}

/** Queues samples [from, to), flushing every 10 minutes of samples (anywhere in a bucket). */
async function feed(t: TestApp, nodeId: number, list: Sample[], from: number, to: number) {
  let flushedAt = list[from]?.at ?? 0;
  for (let i = from; i < to; i++) {
    const s = list[i] as Sample;
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: s.at,
      ifaces: IFACES.map((name) => ({ name, ...s.counters[name] })),
    });
    if (s.at - flushedAt >= 600_000) {
      await t.deps.traffic.collector.flush();
      flushedAt = s.at;
    }
  }
}

/** Every traffic read of both interfaces in both usage modes, as a user sees them. */
async function everything(t: TestApp, nodeId: number) {
  // In the bucket after the last sample's, whose facts Billing figures then count.
  t.clock.set(END + 300_000);
  const headers = await adminHeaders(t);
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    return res.json<unknown>();
  };
  const out: Record<string, unknown> = {};
  for (const mode of ['billing', 'lite'] as const) {
    await t.deps.trafficSettings.patch({ usage_mode: mode });
    out[`${mode} ifaces`] = await get(`/api/statistics/traffic/ifaces?server_id=${nodeId}`);
    for (const iface of IFACES) {
      const q = `server_id=${nodeId}&iface=${iface}`;
      out[`${mode} ${iface} summary`] = await get(`/api/statistics/traffic/summary?${q}`);
      out[`${mode} ${iface} monthly`] = await get(`/api/statistics/traffic/monthly?${q}&months=2`);
      if (mode === 'billing') {
        out[`${mode} ${iface} daily`] = await get(`/api/statistics/traffic/daily?${q}`);
      }
    }
  }
  await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
  for (const iface of IFACES) {
    out[`${iface} facts`] = await t.deps.store.traffic.facts(nodeId, iface, NOV1 - DAY, END + DAY);
    out[`${iface} usage`] = await t.deps.store.traffic.usageSince(nodeId, iface, 0);
  }
  return out;
}

describe('traffic facts across a restart (SQLite)', () => {
  it(
    'a run stopped and started again mid-bucket reads as one that ran through',
    { timeout: 60_000 },
    async () => {
      const list = samples();
      const through = await start(join(tempHome(), 'through.db'));
      await feed(through.t, through.nodeId, list, 0, list.length);
      await through.t.deps.traffic.collector.flush();
      const expected = await everything(through.t, through.nodeId);
      expect(expected['billing eth0 summary']).toMatchObject({
        stats: { p95_status: 'available' },
      });

      // Stops where the open bucket already has parts: 2.5 and 4 minutes into a bucket.
      const cuts = [NOV1 + DAY + 150_000, NOV1 + 3 * DAY + 240_000].map((at) =>
        list.findIndex((s) => s.at >= at),
      );
      const file = join(tempHome(), 'restarted.db');
      let run = await start(file);
      let from = 0;
      for (const cut of cuts) {
        await feed(run.t, run.nodeId, list, from, cut);
        await run.t.deps.traffic.collector.flush();
        // The open bucket is on the cursor row, not in traffic_5m, while the server stops.
        const open = run.t.raw
          .prepare("SELECT open_bucket FROM traffic_iface WHERE iface = 'eth0'")
          .pluck()
          .get() as number;
        expect(open).toBe(Math.floor((list[cut - 1] as Sample).at / 300_000) * 300_000);
        expect(
          run.t.raw.prepare('SELECT count(*) FROM traffic_5m WHERE bucket = ?').pluck().get(open),
        ).toBe(0);
        await stop(run.t);
        run = await start(file);
        from = cut;
      }
      await feed(run.t, run.nodeId, list, from, list.length);
      await run.t.deps.traffic.collector.flush();
      expect(await everything(run.t, run.nodeId)).toEqual(expected);

      // The stored facts are those the counters give (what a rebuild writes).
      for (const iface of IFACES) {
        const counters: CounterSample[] = list.map((s) => ({ at: s.at, ...s.counters[iface] }));
        expect(expected[`${iface} facts`]).toEqual(factsForWindow(counters, NOV1 - DAY, END + DAY));
      }
    },
  );

  it('a rebuild keeps the facts it replaces, the open bucket included', async () => {
    const list = samples().slice(0, 500);
    const { t, nodeId } = await start(join(tempHome(), 'rebuild.db'));
    await feed(t, nodeId, list, 0, list.length);
    await t.deps.traffic.collector.flush();
    const before = await everything(t, nodeId);
    t.clock.set(END + 1000);
    await t.deps.traffic.rebuild.start(nodeId);
    await t.deps.traffic.rebuild.settled();
    expect(t.deps.traffic.rebuild.current().status).toBe('completed');
    expect(await everything(t, nodeId)).toEqual(before);
    // Samples after the rebuild close its open bucket as they would have.
    const more = samples().slice(500, 700);
    await feed(t, nodeId, more, 0, more.length);
    await t.deps.traffic.collector.flush();
    const counters: CounterSample[] = samples()
      .slice(0, 700)
      .map((s) => ({ at: s.at, ...s.counters.eth0 }));
    expect(await t.deps.store.traffic.facts(nodeId, 'eth0', NOV1, END)).toEqual(
      factsForWindow(counters, NOV1, END),
    );
  });
});
