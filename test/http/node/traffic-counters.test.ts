import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';
import type { AcceptedReport } from '../../../src/domain/ingest/report-events.js';

/** A report that lacks an interface counter must not look like a counter reset to traffic. */

let t: TestApp;
let node: { id: number; secret: string };

beforeEach(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  node = await seedNode(t, { name: 'web-01' });
});
afterEach(async () => t.close());

type Iface = { name: string; bytes_recv?: number; bytes_sent?: number };

/** The agent's report with eth0's counters replaced (a missing key stays missing). */
function report(seq: number, eth0: Omit<Iface, 'name'>) {
  const r = agentReport({ seq }) as { metrics: { network: Iface[] } };
  const network = r.metrics.network.map((i) => {
    if (i.name !== 'eth0') return i;
    const { bytes_recv: _r, bytes_sent: _s, ...rest } = i;
    return { ...rest, ...eth0 };
  });
  return { ...r, metrics: { ...r.metrics, network } };
}

function post(body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
    payload: JSON.stringify(body),
  });
}

async function eth0Facts() {
  await t.deps.traffic.collector.flush();
  const now = t.clock.now();
  return t.deps.store.traffic.facts(node.id, 'eth0', now - 3_600_000, now + 3_600_000);
}

describe('interface counters missing from a report', () => {
  it('are unknown, not 0: no reset is counted and no cumulative counter is credited', async () => {
    const base = 5_000_000_000;
    expect((await post(report(1, { bytes_recv: base, bytes_sent: base }))).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await post(report(2, { bytes_sent: base + 6000 }))).statusCode).toBe(200);
    t.clock.advance(60_000);
    const last = report(3, { bytes_recv: base + 12_000, bytes_sent: base + 12_000 });
    expect((await post(last)).statusCode).toBe(200);
    const facts = await eth0Facts();
    expect(facts.reduce((s, f) => s + f.resetCount, 0)).toBe(0);
    expect(facts.reduce((s, f) => s + f.inBytes, 0)).toBe(12_000);
    expect(facts.reduce((s, f) => s + f.outBytes, 0)).toBe(12_000);
  });

  it('reach listeners as null in the already-decoded counters of the accepted report', async () => {
    const events: AcceptedReport[] = [];
    t.deps.reportEvents.onAccepted((e) => void events.push(e));
    await post(report(1, { bytes_sent: 42 }));
    expect(events).toHaveLength(1);
    expect(events[0]!.counters.find((c) => c.name === 'eth0')).toEqual({
      name: 'eth0',
      rx: null,
      tx: 42,
    });
    expect(events[0]!.counters.map((c) => c.name)).toEqual(['eth0', 'eth1', 'docker0']);
  });
});
