import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historySample } from '../../../src/domain/ingest/history-sample.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import { buildTestApp, tempHome, type TestApp } from '../../support/build-app.js';
import { itSqliteOnly } from '../../support/sqlite-only.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';

/** A node cannot grow the device dictionary without bound: past its limit reports are 422. */
const LIMIT = 32;
let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp({ DASH_NODE_MAX_DEVICES: String(LIMIT) });
});
afterEach(async () => t.close());

/** The realistic report plus `extra` interfaces named `${prefix}N`. */
function reportWith(prefix: string, extra: number, seq = 0) {
  const r = agentReport({ seq });
  const base = r.metrics.network[0]!;
  for (let i = 0; i < extra; i++) r.metrics.network.push({ ...base, name: `${prefix}${i}` });
  return r;
}

const baseDevices = historySample(validateMetricsReport(agentReport()).metrics).devices.length;

function post(secret: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': secret },
    payload: JSON.stringify(body),
  });
}

const devicesOf = async (nodeId: number) =>
  (await t.sql.get<{ n: number }>(
    'SELECT count(*) AS n FROM metric_devices WHERE node_id = ?',
    nodeId,
  ))!.n;

describe('distinct devices per node', () => {
  it('accepts devices up to the limit and refuses a report that would pass it with 422', async () => {
    const node = await seedNode(t);
    const room = LIMIT - baseDevices;
    expect(room).toBeGreaterThan(4);
    t.clock.advance(1000);
    expect((await post(node.secret, reportWith('veth', room - 2))).statusCode).toBe(200);
    expect(await devicesOf(node.id)).toBe(LIMIT - 2);

    t.clock.advance(1000);
    const refused = await post(node.secret, reportWith('tap', 3, 1));
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json()).toEqual({
      code: 'invalid_metrics',
      message: expect.stringContaining(`limit of ${LIMIT} distinct devices`) as string,
    });
    // Nothing of the refused report was stored, not even its first new names.
    expect(await devicesOf(node.id)).toBe(LIMIT - 2);

    // Known devices, and new ones that still fit, keep being accepted.
    t.clock.advance(1000);
    expect((await post(node.secret, reportWith('veth', room - 2, 2))).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await post(node.secret, reportWith('tap', 2, 3))).statusCode).toBe(200);
    expect(await devicesOf(node.id)).toBe(LIMIT);
  });

  it("refuses one node's report without failing another node's in the same batch", async () => {
    const noisy = await seedNode(t, { name: 'noisy' });
    const quiet = await seedNode(t, { name: 'quiet' });
    t.clock.advance(1000);
    const [a, b] = await Promise.all([
      post(noisy.secret, reportWith('veth', 3000)),
      post(quiet.secret, agentReport()),
    ]);
    expect(a.statusCode).toBe(422);
    expect(b.statusCode).toBe(200);
    expect(await devicesOf(noisy.id)).toBe(0);
    expect(await devicesOf(quiet.id)).toBe(baseDevices);
  });
});

describe('device dictionary lookups', () => {
  // Times SQLite's dictionary. On PostgreSQL the 40,000 device upserts it needs take longer than
  // its 30 s budget on the shared 2-core machine (a timeout, not a slope): not measured there yet.
  itSqliteOnly(
    'stay flat as the dictionary grows',
    async () => {
      const big = await buildTestApp({ DASH_NODE_MAX_DEVICES: '1000000' });
      try {
        const node = await seedNode(big);
        const send = (prefix: string, n: number, seq: number) =>
          big.app.inject({
            method: 'POST',
            url: '/api/node/metrics',
            headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
            payload: JSON.stringify(reportWith(prefix, n, seq)),
          });
        // A report of 2,000 known names, timed (best of 3) against a dictionary of 2,000 and one of
        // 40,000: a scan per lookup (the old dictionary) makes the second 20 times slower.
        let seq = 0;
        const timed = async (prefix: string): Promise<number> => {
          let best = Infinity;
          for (let i = 0; i < 3; i++) {
            big.clock.advance(1000);
            const start = performance.now();
            expect((await send(prefix, 2000, ++seq)).statusCode).toBe(200);
            best = Math.min(best, performance.now() - start);
          }
          return best;
        };
        big.clock.advance(1000);
        expect((await send('n0-', 2000, ++seq)).statusCode).toBe(200);
        const small = await timed('n0-');
        for (let i = 1; i < 20; i++) {
          big.clock.advance(1000);
          expect((await send(`n${i}-`, 2000, ++seq)).statusCode).toBe(200);
        }
        const large = await timed('n19-');
        expect(large).toBeLessThan(small * 4 + 20);
      } finally {
        await big.close();
      }
    },
    30_000,
  );
});

describe('on the ingest worker threads', () => {
  it('applies the configured limit there too', async () => {
    const home = tempHome();
    const w = await buildTestApp({
      DASH_HOME: home,
      DASH_DATABASE_URL: join(home, 'dash.db'),
      DASH_NODE_MAX_DEVICES: String(LIMIT),
    });
    try {
      const node = await seedNode(w);
      const send = () =>
        w.app.inject({
          method: 'POST',
          url: '/api/node/metrics',
          headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
          payload: JSON.stringify(reportWith('veth', LIMIT)),
        });
      // A worker thread starting on a loaded machine may miss the 5 s budget (503): retry that.
      let res = await send();
      for (let i = 0; i < 3 && res.statusCode === 503; i++) res = await send();
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'invalid_metrics' });
      expect(res.json<{ message: string }>().message).toContain(`limit of ${LIMIT}`);
    } finally {
      await w.close();
    }
  });
});
