import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StepPacer } from '../../../src/platform/step-pacer.js';
import { buildTestApp, tempHome, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';

/**
 * On a database file the collector's chunks are stored on the first ingest thread, paced: a gap
 * after each chunk, in which reports commit and traffic reads run. A read in such a gap, with
 * some nodes stored by this flush and others still queued, answers what it answers before and
 * after the flush (docs/ingest-performance.md, "Traffic flush pacing").
 */

let t: TestApp;
let admin: Record<string, string>;
const ids: number[] = [];
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

beforeAll(async () => {
  const home = tempHome();
  t = await buildTestApp({ DASH_HOME: home, DASH_DATABASE_URL: join(home, 'dash.db') });
  await t.deps.scheduler.stop();
  for (const name of ['a', 'b', 'c']) ids.push((await seedNode(t, { name })).id);
  t.clock.set(T0 + 230 * MIN);
  admin = await adminHeaders(t);
}, 60_000);
afterAll(async () => t.close());

async function get(path: string) {
  const res = await t.app.inject({ method: 'GET', url: path, headers: admin });
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown>>();
}

/**
 * Two interfaces every 3 s for minutes [from, to): 2,000 samples a node in 100 minutes, so
 * three nodes are three chunks (4,096 samples at most, whole nodes) with gaps between.
 */
function feed(from: number, to: number) {
  for (let s = from * 20; s < to * 20; s++) {
    for (const nodeId of ids) {
      const at = T0 + s * 3000 + nodeId;
      t.deps.traffic.collector.enqueue({
        nodeId,
        receivedAt: at,
        ifaces: [
          { name: 'eth0', rx: s * 3000 * nodeId, tx: s * 750 },
          { name: 'eth1', rx: s * 30, tx: s * 9 },
        ],
      });
    }
  }
}

async function everything() {
  const out: unknown[] = [];
  for (const id of ids) {
    const q = `server_id=${id}&iface=eth0`;
    out.push(
      await get(`/api/statistics/traffic/ifaces?server_id=${id}`),
      await get(`/api/statistics/traffic/summary?${q}`),
      await get(`/api/statistics/traffic/monthly?${q}&months=2`),
      (await t.deps.trafficSettings.get()).usage_mode === 'billing'
        ? await get(`/api/statistics/traffic/daily?${q}`)
        : undefined,
    );
  }
  return out;
}

describe('a paced traffic flush on the ingest thread', () => {
  it.each(['billing', 'lite'] as const)(
    'answers %s reads between its chunks as before and after it',
    async (mode) => {
      await t.deps.trafficSettings.patch({ usage_mode: mode });
      // Billing: minutes 0–110, Lite: 110–220.
      const from = mode === 'billing' ? 0 : 110;
      feed(from, from + 10);
      await t.deps.traffic.collector.flush();
      feed(from + 10, from + 110);
      const before = await everything();
      const pending = t.deps.traffic.collector.pending;
      expect(pending).toBeGreaterThan(4096);
      const between: number[] = [];
      // In each gap before a chunk: read everything (a turn of the event loop stands in for
      // the gap itself).
      const pause = vi.spyOn(StepPacer.prototype, 'pause');
      pause.mockImplementation(async () => {
        between.push(t.deps.traffic.collector.pending);
        expect(await everything()).toEqual(before);
        await new Promise((r) => setImmediate(r));
      });
      try {
        await t.deps.traffic.collector.flush();
      } finally {
        pause.mockRestore();
      }
      // Reads ran with none, some and most of the nodes stored.
      expect(between.length).toBeGreaterThanOrEqual(3);
      expect(between[0]).toBe(pending);
      expect(between.some((n) => n > 0 && n < pending)).toBe(true);
      expect(t.deps.traffic.collector.pending).toBe(0);
      expect(await everything()).toEqual(before);
    },
    60_000,
  );
});
