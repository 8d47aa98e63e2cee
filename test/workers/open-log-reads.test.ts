import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenLogReaders } from '../../src/store/sqlite/open-logs.js';
import { agentReport } from '../support/agent-payloads.js';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { seedNode } from '../support/seed-nodes.js';

/**
 * The same reports posted to Dash on a database file (ingest threads writing their open-block
 * logs) and on an in-memory database (rows in metrics_raw and node_current, as before the log):
 * every read answers the same, before and after the worker Dash stopped (sealing its logs) and
 * started again. Two reports of one node in the same millisecond are among them: metrics_raw
 * keeps the later one a millisecond on, in the next 3 s bucket, and so must the log.
 */
let home: string;
let onLog: TestApp;
let onRows: TestApp;
const ids: Record<string, number> = {};

const URLS = [
  '/api/metrics/history?server_id=ID&metric=cpu.usage_ratio&range=30m',
  '/api/metrics/history?server_id=ID&metric=mem.used&range=1h',
  '/api/metrics/history?server_id=ID&metric=cpu.usage_ratio&range=24h&agg=max',
  '/api/metrics/history?server_id=ID&metric=disk.read_bps&range=30m&device=nvme0n1',
  '/api/metrics/uptime',
  '/api/admin/system/storage',
];

async function answers(t: TestApp): Promise<unknown[]> {
  const headers = await adminHeaders(t);
  const out: unknown[] = [];
  for (const url of URLS) {
    const res = await t.app.inject({
      method: 'GET',
      url: url.replace('ID', String(ids.a)),
      headers,
    });
    expect(res.statusCode, url).toBe(200);
    const body = res.json<Record<string, unknown>>();
    if (url.includes('storage')) {
      // Where the unsealed reports are differs (rows or log); how many does not.
      const raw = body.raw_history as Record<string, unknown>;
      out.push({ open_rows: raw.open_rows, points: raw.points, oldest_at: raw.oldest_at });
    } else out.push(body);
  }
  return out;
}

async function postBoth(secret: Record<string, string>, at: number, seq: number) {
  for (const [name, t] of [
    ['log', onLog],
    ['rows', onRows],
  ] as const) {
    t.clock.set(at);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': secret[name]! },
      payload: JSON.stringify(agentReport({ seq })),
    });
    expect(res.statusCode, name).toBe(200);
  }
}

beforeAll(async () => {
  home = tempHome();
  onLog = await buildTestApp({ DASH_HOME: home, DASH_DATABASE_URL: join(home, 'dash.db') });
  onRows = await buildTestApp();
  const a = await seedNode(onLog, { name: 'a', guestVisible: true });
  const b = await seedNode(onRows, { name: 'a', guestVisible: true });
  expect(a.id).toBe(b.id);
  ids.a = a.id;
  const start = onLog.clock.now();
  for (let seq = 0; seq < 60; seq++) {
    // A millisecond before each 3 s bucket ends.
    const at = start + 60_000 + seq * 3000 + 2999;
    await postBoth({ log: a.secret, rows: b.secret }, at, seq);
    if (seq === 10) await postBoth({ log: a.secret, rows: b.secret }, at, 100);
  }
  for (const t of [onLog, onRows]) {
    t.clock.set(start + 4 * 60_000 + 6000);
    await t.deps.uptime.finalise();
  }
}, 120_000);
afterAll(async () => {
  await onRows.close();
  await onLog.close();
});

describe('reads with the ingest threads on their open-block logs', () => {
  it('answer what the rows answered: history, uptime, the open block', async () => {
    const logs = new OpenLogReaders(join(home, 'dash.db'));
    expect(logs.size().records).toBe(61);
    logs.close();
    expect(onLog.raw.prepare('SELECT count(*) FROM metrics_raw').pluck().get()).toBe(0);
    const [series] = (await answers(onRows)) as Array<{ points: Array<{ value: number | null }> }>;
    // 61 reports in 60 buckets: the same-millisecond one moved into the next report's bucket.
    expect(series!.points.filter((p) => p.value !== null)).toHaveLength(60);
    expect(await answers(onLog)).toEqual(await answers(onRows));
    expect(onLog.deps.front.view(ids.a!)).toEqual(onRows.deps.front.view(ids.a!));
  });

  it('answer the same after a stop sealed the logs and a start read the database', async () => {
    const now = onLog.clock.now();
    await onLog.close();
    onLog = await buildTestApp({ DASH_HOME: home, DASH_DATABASE_URL: join(home, 'dash.db') });
    onLog.clock.set(now);
    const logs = new OpenLogReaders(join(home, 'dash.db'));
    expect(logs.size().records).toBe(0);
    logs.close();
    expect(onLog.raw.prepare('SELECT sum(count) FROM metrics_blocks').pluck().get()).toBe(61);
    const [before, after] = [await answers(onRows), await answers(onLog)];
    // Sealed points are no longer open: compare the reads, and the total separately.
    expect(after.slice(0, 5)).toEqual(before.slice(0, 5));
    expect(after[5]).toMatchObject({ open_rows: 0, points: 61 });
  });
});
