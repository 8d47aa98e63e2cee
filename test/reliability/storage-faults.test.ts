import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { agentReport } from '../support/agent-payloads.js';
import { agentStatic } from '../support/agent-static.js';
import { seedNode } from '../support/seed-nodes.js';

/**
 * A full disk and a read-only database, simulated inside SQLite so it runs anywhere (no mount,
 * no root): `max_page_count` pinned to the current size makes every growing write fail with
 * SQLITE_FULL, `query_only` makes every write fail as on a read-only file. The same faults on
 * a real filesystem, against the real server, are in storage-faults-fs.test.ts.
 */
let t: TestApp;
let admin: Record<string, string>;
let node: { id: number; secret: string };
let seq = 0;
const json = { 'content-type': 'application/json' };
const acked: number[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  node = await seedNode(t, { name: 'faulty-disk', guestVisible: true });
});
afterAll(async () => t.close());

async function report() {
  const body = agentReport({ seq: ++seq });
  body.metrics.memory.used = 5_000_000 + seq;
  t.clock.advance(3000);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { ...json, 'x-node-secret': node.secret },
    payload: JSON.stringify(body),
  });
  if (res.statusCode === 200) acked.push(5_000_000 + seq);
  return res;
}

async function readsWork() {
  for (const url of ['/api/front/metrics', '/api/admin/nodes/', '/api/front/groups']) {
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, url).toBe(200);
  }
  const front = await t.app.inject({ method: 'GET', url: '/api/front/metrics' });
  expect(front.body).toContain('faulty-disk');
}

function intact() {
  const db = t.raw;
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  const stored = new Set(
    (
      db.prepare('SELECT mem_used FROM metrics_raw WHERE node_id = ?').all(node.id) as Array<{
        mem_used: number;
      }>
    ).map((r) => r.mem_used),
  );
  expect(acked.filter((m) => !stored.has(m))).toEqual([]);
}

/** Sends reports until one is refused; the fault must show within a bounded number. */
async function untilRefused() {
  for (let i = 0; i < 400; i++) {
    const res = await report();
    if (res.statusCode !== 200) return res;
  }
  throw new Error('400 reports accepted on a full database');
}

describe('storage faults (simulated in SQLite)', () => {
  it('accepts reports on a healthy database', async () => {
    for (let i = 0; i < 5; i++) expect((await report()).statusCode).toBe(200);
  });

  it('a full disk: ingest answers 503 service_unavailable, reads work, nothing is corrupted, and it recovers by itself', async () => {
    const db = t.raw;
    const normal = db.pragma('max_page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    try {
      const refused = await untilRefused();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'service_unavailable' });
      // Every later report is refused the same way, never a 500.
      for (let i = 0; i < 5; i++) {
        const res = await report();
        expect([200, 503]).toContain(res.statusCode);
      }
      const staticReport = await t.app.inject({
        method: 'POST',
        url: '/api/node/static',
        headers: { ...json, 'x-node-secret': node.secret },
        payload: JSON.stringify({ ...agentStatic(), hostname: 'x'.repeat(200) }),
      });
      expect([200, 503]).toContain(staticReport.statusCode); // 200 if it fit
      if (staticReport.statusCode >= 500)
        expect(staticReport.json()).toMatchObject({ code: 'service_unavailable' });
      await readsWork();
      intact();
    } finally {
      db.pragma(`max_page_count = ${normal}`);
    }
    // Space is back: the next report is taken without any restart.
    expect((await report()).statusCode).toBe(200);
    intact();
  });

  it('a read-only database: ingest answers 503 service_unavailable, reads work, and it recovers by itself', async () => {
    const db = t.raw;
    db.pragma('query_only = ON');
    try {
      const res = await report();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable' });
      const group = await t.app.inject({
        method: 'POST',
        url: '/api/admin/groups/',
        headers: { ...admin, ...json },
        payload: JSON.stringify({ name: 'while read-only' }),
      });
      expect(group.statusCode).toBe(503);
      expect(group.json()).toMatchObject({ code: 'db_error' });
      await readsWork();
    } finally {
      db.pragma('query_only = OFF');
    }
    intact();
    expect((await report()).statusCode).toBe(200);
    intact();
  });
});
