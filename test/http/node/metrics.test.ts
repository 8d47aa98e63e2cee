import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport, windowsAgentReport } from '../../support/agent-payloads.js';
import type { AcceptedReport } from '../../../src/domain/ingest/report-events.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';

let t: TestApp;
let node: { id: number; secret: string };

beforeEach(async () => {
  t = await buildTestApp();
  node = await seedNode(t, { name: 'web-01' });
});
afterEach(async () => t.close());

function post(body: unknown, secret: string | null = node.secret, raw?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: {
      'content-type': 'application/json',
      ...(secret !== null ? { 'x-node-secret': secret } : {}),
    },
    payload: raw ?? JSON.stringify(body),
  });
}

const rawCount = async (nodeId = node.id) =>
  (await t.sql.get<{ n: number }>(
    'SELECT count(*) AS n FROM metrics_raw WHERE node_id = ?',
    nodeId,
  ))!.n;
const currentAt = async (nodeId = node.id) =>
  (
    await t.sql.get<{ received_at: number }>(
      'SELECT received_at FROM node_current WHERE node_id = ?',
      nodeId,
    )
  )?.received_at;

describe('POST /api/node/metrics', () => {
  it('stores a full realistic report and answers 200 {ok: true, update: null}', async () => {
    const res = await post(agentReport());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ ok: true, update: null });
    expect(await rawCount()).toBe(1);
    expect(await currentAt()).toBe(t.clock.now());
    expect(t.deps.front.view(node.id)?.node.title).toBe('web-01');
  });

  it('accepts a Windows report and a long run of varying reports', async () => {
    expect((await post(windowsAgentReport())).statusCode).toBe(200);
    for (let seq = 1; seq <= 30; seq++) {
      t.clock.advance(3000);
      const res = await post(agentReport({ seq }));
      expect(res.statusCode, `seq ${seq}`).toBe(200);
    }
    expect(await rawCount()).toBe(31);
  });

  it('ignores unknown and Dash-internal fields', async () => {
    const r = {
      ...agentReport(),
      sent_at: 'whenever',
      server_id: 'not-a-number',
      display_order: 'x',
      future: { nested: [1, 2] },
    };
    (r.metrics as Record<string, unknown>).virt = { vms: [] };
    expect((await post(r)).statusCode).toBe(200);
  });

  it('answers the update manifest the upgrade service offers for the reported version', async () => {
    const manifest = {
      id: '0.3.0',
      version: '0.3.0',
      url: 'http://127.0.0.1:8080/deploy/linux/node_linux_amd64',
      sha256: 'a'.repeat(64),
      size: 1234,
    };
    const seen: Array<[number, string]> = [];
    t.deps.updateOffers.manifestFor = async (id, version) => {
      seen.push([id, version]);
      return manifest;
    };
    const res = await post(agentReport());
    expect(res.json()).toEqual({ ok: true, update: manifest });
    expect(seen).toEqual([[node.id, '0.2.5']]);
  });

  it('still answers 200 with update null when the manifest cannot be resolved', async () => {
    t.deps.updateOffers.manifestFor = async () => {
      throw new Error('asset unreadable');
    };
    const res = await post(agentReport());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, update: null });
  });

  describe('401 unauthorized', () => {
    it.each([
      ['a missing secret', null],
      ['an empty secret', ''],
      ['an unknown secret', 'not-a-node-secret'],
    ])('for %s, storing nothing', async (_name, secret) => {
      const res = await post(agentReport(), secret);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
      expect(await rawCount()).toBe(0);
    });

    it('for the secret of a node removed from the index (deleted or rotated)', async () => {
      t.deps.nodeSecrets.remove(node.id);
      expect((await post(agentReport())).statusCode).toBe(401);
    });
  });

  describe('400 invalid_request', () => {
    const replace = (from: string, to: string) => JSON.stringify(agentReport()).replace(from, to);
    it.each([
      [
        'an int64 counter above 2^63-1',
        replace('"bytes_recv":918273645123', '"bytes_recv":9223372036854775808'),
      ],
      [
        'an int64 counter below -2^63',
        replace('"bytes_recv":918273645123', '"bytes_recv":-9223372036854775809'),
      ],
      ['a process count above int32', replace('"process_count":312', '"process_count":2147483648')],
      ['a tcp count below int32', replace('"tcp_count":87', '"tcp_count":-2147483649')],
      ['a negative uint64 SMART counter', replace('"power_on_hours":18231', '"power_on_hours":-1')],
      [
        'a uint64 above 2^64-1',
        replace('"power_on_hours":18231', '"power_on_hours":18446744073709551616'),
      ],
      ['a fraction for an integer', replace('"process_count":312', '"process_count":312.5')],
      ['a string for a number', replace('"load1":1.25', '"load1":"1.25"')],
      ['a number for a string', replace('"hostname":"web-01.example.net"', '"hostname":42')],
      ['an object for an array', JSON.stringify({ ...agentReport(), metrics: { network: {} } })],
      ['a duplicate key', replace('"load5":', '"load5":1,"load5":')],
      ['malformed JSON', '{"version":'],
      ['a JSON array body', '[]'],
      ['an unparseable timestamp', replace('"timestamp":"', '"timestamp":"x')],
    ])('for %s', async (_name, raw) => {
      const res = await post(undefined, node.secret, raw);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_request' });
      expect(await rawCount()).toBe(0);
    });

    it('accepts the int64 and uint64 limits themselves', async () => {
      const raw = JSON.stringify(agentReport())
        .replace('"bytes_recv":918273645123', '"bytes_recv":9223372036854775807')
        .replace('"power_on_hours":18231', '"power_on_hours":18446744073709551615');
      expect((await post(undefined, node.secret, raw)).statusCode).toBe(200);
    });
  });

  describe('422 invalid_metrics', () => {
    it.each([
      [
        'a negative byte counter',
        (r: ReturnType<typeof agentReport>) => (r.metrics.memory.used = -1),
      ],
      ['a ratio above 1', (r: ReturnType<typeof agentReport>) => (r.metrics.cpu.usage_ratio = 1.5)],
      [
        'a negative rate',
        (r: ReturnType<typeof agentReport>) => (r.metrics.network[0]!.recv_rate_bytes_per_sec = -1),
      ],
      [
        'a PSI average above 100',
        (r: ReturnType<typeof agentReport>) => (r.metrics.pressure.cpu.some.avg60 = 101),
      ],
      ['a blank hostname', (r: ReturnType<typeof agentReport>) => (r.hostname = '')],
      [
        'duplicate interface names',
        (r: ReturnType<typeof agentReport>) => (r.metrics.network[1]!.name = 'eth0'),
      ],
      [
        'an over-long interface name',
        (r: ReturnType<typeof agentReport>) => (r.metrics.network[1]!.name = 'x'.repeat(65)),
      ],
      ['an invalid version', (r: ReturnType<typeof agentReport>) => (r.version = 'latest')],
    ])('for %s, storing nothing', async (_name, edit) => {
      const r = agentReport();
      edit(r);
      const res = await post(r);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'invalid_metrics' });
      expect(await rawCount()).toBe(0);
      expect(await currentAt()).toBeUndefined();
    });
  });

  describe('503 service_unavailable when not persisted within 5 s of receipt', () => {
    /** Lets the clock jump past the budget at the n-th reading after the request arrives. */
    function jumpAtReading(n: number) {
      const base = t.clock.now();
      let readings = 0;
      t.clock.now = () => (++readings >= n ? base + 5001 : base);
    }

    it.each([
      ['before processing starts (slow body upload)', 2],
      ['while waiting for the ingest pipeline', 3],
      ['while queued for the writer', 4],
      ['during the transaction, before COMMIT', 5],
    ])('%s, leaving nothing behind', async (_name, reading) => {
      const events: AcceptedReport[] = [];
      t.deps.reportEvents.onAccepted((e) => void events.push(e));
      jumpAtReading(reading);
      const res = await post(agentReport());
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable' });
      expect(await rawCount()).toBe(0);
      expect(await currentAt()).toBeUndefined();
      expect(await t.sql.get('SELECT count(*) AS n FROM metric_devices')).toEqual({
        n: 0,
      });
      expect(t.deps.front.json(node.id)).toBeUndefined();
      expect(events).toEqual([]);
    });

    it('exactly at the budget is still in time', async () => {
      const base = t.clock.now();
      let readings = 0;
      t.clock.now = () => (++readings >= 2 ? base + 5000 : base);
      expect((await post(agentReport())).statusCode).toBe(200);
    });

    it('when the store fails, without a stack trace in the answer', async () => {
      await t.sql.exec('DROP TABLE node_current');
      const res = await post(agentReport());
      expect(res.statusCode).toBe(503);
      const body = res.json<Record<string, unknown>>();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body.code).toBe('service_unavailable');
      expect(String(body.message)).not.toMatch(/SqliteError|at .*\.ts/);
      expect(await rawCount()).toBe(0);
    });
  });

  it('413 body_too_large above 1 MiB', async () => {
    const r = agentReport() as Record<string, unknown>;
    r.padding = 'x'.repeat(1024 * 1024);
    const res = await post(r);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('415 for a non-JSON content type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'text/plain', 'x-node-secret': node.secret },
      payload: JSON.stringify(agentReport()),
    });
    expect(res.statusCode).toBe(415);
  });

  describe('receive order (spec §4.4 rule 3)', () => {
    it('stores an earlier-received report that finishes later in history only', async () => {
      const events: AcceptedReport[] = [];
      t.deps.reportEvents.onAccepted((e) => void events.push(e));
      const later = t.clock.now();
      expect((await post(agentReport({ seq: 2 }))).statusCode).toBe(200);
      const viewBefore = t.deps.front.json(node.id);
      // The earlier report reaches the store only now: its receive time is older.
      t.clock.set(later - 2000);
      expect((await post(agentReport({ seq: 1 }))).statusCode).toBe(200);
      expect(await rawCount()).toBe(2);
      expect(await currentAt()).toBe(later);
      expect(t.deps.front.json(node.id)).toBe(viewBefore);
      expect(events.map((e) => e.receivedAt)).toEqual([later]);
    });

    it('ignores the node clock: a report with an older timestamp received later is current', async () => {
      await post(agentReport({ timestamp: '2026-11-21T11:00:10Z' }));
      t.clock.advance(3000);
      await post(agentReport({ timestamp: '2020-01-01T00:00:00Z' }));
      const observation = t.deps.front.view(node.id)?.observation;
      expect(observation?.received_at).toBe(
        new Date(t.clock.now()).toISOString().slice(0, 19) + 'Z',
      );
      expect(observation?.sent_at).toBe('2020-01-01T00:00:00Z');
    });

    it('fires the accepted-report event with the decoded counters, readings and the new view', async () => {
      const events: AcceptedReport[] = [];
      t.deps.reportEvents.onAccepted((e) => void events.push(e));
      await post(agentReport({ seq: 4 }));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ nodeId: node.id, receivedAt: t.clock.now() });
      expect(events[0]!.counters).toHaveLength(3);
      expect(events[0]!.readings?.values['conn.tcp']).toBe(87);
      // Taken beside the decode: the same as reading the installed view.
      expect(events[0]!.readings).toEqual(alertReadings(events[0]!.view()!));
      expect(events[0]!.view()?.network.by_interface?.map((i) => i.name)).toEqual([
        'eth0',
        'eth1',
        'docker0',
      ]);
    });

    it('a failing listener never fails the report', async () => {
      t.deps.reportEvents.onAccepted(() => {
        throw new Error('listener bug');
      });
      t.deps.reportEvents.onAccepted(async () => Promise.reject(new Error('async bug')));
      expect((await post(agentReport())).statusCode).toBe(200);
    });
  });

  it('records the client address on the node when the report becomes current', async () => {
    await post(agentReport());
    const row = (await t.sql.get<{ ip: string }>('SELECT ip FROM nodes WHERE id = ?', node.id))!;
    expect(row.ip).toBe('127.0.0.1');
  });
});
