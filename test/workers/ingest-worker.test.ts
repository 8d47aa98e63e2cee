import { decodeCounters } from '../../src/store/sqlite/traffic-counter-codec.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { seedNode } from '../support/seed-nodes.js';
import { agentReport } from '../support/agent-payloads.js';
import { historySource } from '../../src/store/sqlite/history-source.js';
import { OpenLogReaders } from '../../src/store/sqlite/open-logs.js';

/**
 * The production path: a database file, so reports are decoded, validated and committed on the
 * ingest worker thread with its own connection.
 */
let t: TestApp;
let node: { id: number; secret: string };
let logs: OpenLogReaders;
/** Reports of a node in history: blocks, raw rows and the ingest threads' open-block logs. */
const stored = (nodeId: number) =>
  historySource(t.raw, logs).count(nodeId, 0, Number.MAX_SAFE_INTEGER);

beforeAll(async () => {
  const home = tempHome();
  t = await buildTestApp({ DASH_HOME: home, DASH_DATABASE_URL: join(home, 'dash.db') });
  logs = new OpenLogReaders(join(home, 'dash.db'));
  node = await seedNode(t, { name: 'worker-node' });
  // The threads load their modules first; on a loaded machine that can outlast a report's 5 s
  // deadline (503). Wait until a report of another node is stored, so the tests below measure
  // ingest, not start-up.
  const warm = await seedNode(t, { name: 'warm-up' });
  for (let i = 0; i < 60; i++) {
    if ((await post(JSON.stringify(agentReport({ seq: i })), warm.secret)).statusCode === 200)
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
}, 60_000);
afterAll(async () => t.close());

const post = (payload: string, secret = node.secret) =>
  t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': secret },
    payload,
  });

describe('ingest on the worker thread', () => {
  it('stores concurrent reports durably and answers each after its commit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, seq) => post(JSON.stringify(agentReport({ seq })))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(200));
    // In the thread's log, readable on the HTTP thread as soon as the answers are in; nothing
    // in metrics_raw (docs/ingest-disk-writes.md).
    expect(stored(node.id)).toBe(40);
    expect(t.raw.prepare('SELECT count(*) FROM metrics_raw').pluck().get()).toBe(0);
    expect(t.deps.front.view(node.id)?.node.title).toBe('worker-node');
  });

  it('answers 400 and 422 from the worker with the right codes', async () => {
    const bad = await post('{"version":1}');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_request' });
    const dup = await post('{"version":"1.0.0","version":"1.0.0"}');
    expect(dup.statusCode).toBe(400);
    const r = agentReport();
    r.metrics.cpu.usage_ratio = 3;
    const rule = await post(JSON.stringify(r));
    expect(rule.statusCode).toBe(422);
    expect(rule.json()).toMatchObject({ code: 'invalid_metrics' });
  });

  it('shares the nodes between the ingest threads, each node on one of them', async () => {
    const nodes = [];
    for (let i = 0; i < 6; i++) nodes.push(await seedNode(t, { name: `shard-${i}` }));
    const answers = await Promise.all(
      nodes.flatMap((n) =>
        Array.from({ length: 10 }, (_, seq) =>
          t.app.inject({
            method: 'POST',
            url: '/api/node/metrics',
            headers: { 'content-type': 'application/json', 'x-node-secret': n.secret },
            payload: JSON.stringify(agentReport({ seq })),
          }),
        ),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    for (const n of nodes) {
      expect(stored(n.id)).toBe(10);
      expect(t.deps.front.view(n.id)?.cpu.usage_ratio).toBeGreaterThan(0);
    }
  });

  it('moves a fast-lane body to the ingest thread, listeners or not (they get the decoded digest)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const send = (seq: number) =>
      fetch(`http://127.0.0.1:${port}/api/node/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
        body: JSON.stringify(agentReport({ seq })),
      });
    const count = () => stored(node.id);
    const before = count();
    t.clock.advance(3000);
    expect((await send(100)).status).toBe(200);
    const seen: number[] = [];
    const off = t.deps.reportEvents.onAccepted((e) => {
      seen.push(e.view()?.processes.count ?? -1);
    });
    t.clock.advance(3000);
    expect((await send(101)).status).toBe(200);
    off();
    expect(seen).toEqual([312 + (101 % 5)]);
    expect(count()).toBe(before + 2);
  });

  it('runs rollups and retention on the worker, every log sealed first', async () => {
    const ids = t.raw.prepare('SELECT id FROM nodes').pluck().all() as number[];
    const total = ids.reduce((n, id) => n + stored(id), 0);
    const now = t.clock.now() + 3_600_000;
    const rollup = await t.deps.ingestBackend.rollup(now);
    expect(rollup.watermark15m).toBeGreaterThan(0);
    // Both threads' closed windows are blocks now; the logs hold nothing.
    expect(logs.size().records).toBe(0);
    expect(ids.reduce((n, id) => n + stored(id), 0)).toBe(total);
    const retention = await t.deps.ingestBackend.retention(now + 30 * 86_400_000, 8);
    expect(retention.raw).toBe(total);
  });

  it('stores traffic counters through the worker, off the HTTP thread', async () => {
    const n = await seedNode(t, { name: 'traffic-node' });
    const viaWorker = vi.spyOn(t.deps.ingestBackend, 'applyTraffic');
    // Counters are stored as one blob per node and minute (SQLite 0016): count the samples.
    const rows = (nodeId?: number) =>
      (
        t.raw
          .prepare('SELECT data FROM traffic_counter_minute WHERE node_id = coalesce(?, node_id)')
          .all(nodeId ?? null) as Array<{ data: Uint8Array }>
      ).reduce((n, r) => n + decodeCounters(r.data).length, 0);
    const before = rows();
    for (let seq = 0; seq < 3; seq++) {
      t.clock.advance(3000);
      expect((await post(JSON.stringify(agentReport({ seq })), n.secret)).statusCode).toBe(200);
    }
    const stored = await t.deps.traffic.collector.flush();
    expect(stored).toBeGreaterThan(0);
    expect(viaWorker).toHaveBeenCalled();
    // Committed on the worker's connection, visible on the HTTP thread's own.
    expect(rows() - before).toBe(stored);
    expect(rows(n.id)).toBeGreaterThan(0);
    viaWorker.mockRestore();
  });
});
