import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { buildTestApp, tempHome, type TestApp } from '../../support/build-app.js';
import { itSqliteOnly } from '../../support/sqlite-only.js';
import { adminHeaders } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { agentStatic } from '../../support/agent-static.js';
import { parseExposition } from '../../support/exposition.js';

const TOKEN = 'scrape-token-0123456789';
const json = { 'content-type': 'application/json' };
const bearer = { authorization: `Bearer ${TOKEN}` };

async function addReportingNode(t: TestApp, name: string): Promise<{ id: number; secret: string }> {
  const admin = await adminHeaders(t);
  await t.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin });
  const list = (
    await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
  ).json<Array<{ id: number; secret: string }>>();
  const node = list.reduce((a, b) => (b.id > a.id ? b : a));
  await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/nodes/${node.id}`,
    headers: { ...admin, ...json },
    payload: { name },
  });
  const headers = { ...json, 'x-node-secret': node.secret };
  const s = await t.app.inject({
    method: 'POST',
    url: '/api/node/static',
    headers,
    payload: JSON.stringify(agentStatic()),
  });
  expect(s.statusCode).toBe(200);
  await report(t, node.secret, 0);
  return node;
}

async function report(t: TestApp, secret: string, seq: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { ...json, 'x-node-secret': secret },
    payload: JSON.stringify(agentReport({ seq })),
  });
  expect(res.statusCode).toBe(200);
}

const sample = (
  families: ReturnType<typeof parseExposition>,
  name: string,
  labels: Record<string, string> = {},
) =>
  families
    .get(name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe('GET /metrics, off by default', () => {
  it('answers 404 not_found when metrics are not enabled', async () => {
    const t = await buildTestApp();
    try {
      expect(t.config.metrics.enabled).toBe(false);
      expect(t.deps.telemetry).toBeUndefined();
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await t.close();
    }
  });

  it('refuses to enable metrics without a token or an allow-list', () => {
    const home = tempHome();
    expect(() => loadConfig({ DASH_HOME: home, DASH_METRICS_ENABLED: 'true' })).toThrow(
      /DASH_METRICS_TOKEN or DASH_METRICS_ALLOW/,
    );
    expect(() =>
      loadConfig({ DASH_HOME: home, DASH_METRICS_ENABLED: 'true', DASH_METRICS_TOKEN: 'short' }),
    ).toThrow(/DASH_METRICS_TOKEN: must be at least 16 characters/);
    expect(() =>
      loadConfig({ DASH_HOME: home, DASH_METRICS_ENABLED: 'true', DASH_METRICS_ALLOW: 'nope' }),
    ).toThrow(/DASH_METRICS_ALLOW/);
    const c = loadConfig({
      DASH_HOME: home,
      DASH_METRICS_ENABLED: 'yes',
      DASH_METRICS_ALLOW: '10.0.0.0/8,192.168.1.5',
      DASH_METRICS_REFRESH_INTERVAL: '30s',
    });
    expect(c.metrics).toEqual({
      enabled: true,
      token: undefined,
      allow: ['10.0.0.0/8', '192.168.1.5'],
      refreshIntervalMs: 30_000,
    });
  });
});

describe('GET /metrics with a token', () => {
  let t: TestApp;
  let node: { id: number; secret: string };

  beforeAll(async () => {
    t = await buildTestApp({ DASH_METRICS_ENABLED: 'true', DASH_METRICS_TOKEN: TOKEN });
    node = await addReportingNode(t, 'web "01"');
  });
  afterAll(async () => t.close());

  it('answers 401 with WWW-Authenticate without the right bearer token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="dash-metrics"');
      expect(res.body).not.toContain('dash_');
    }
  });

  it('serves a parseable exposition of Dash itself and of every node', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const f = parseExposition(res.body);
    // Dash's own health.
    expect(Number(sample(f, 'dash_ingest_reports_total', { result: 'ok' })?.value)).toBe(1);
    expect(f.get('dash_ingest_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(sample(f, 'dash_ingest_duration_seconds')?.count).toBe('1');
    for (const name of [
      'dash_ingest_inflight_reports',
      'dash_ingest_queued_reports',
      'dash_ingest_batches_total',
      'dash_ingest_batched_reports_total',
      'dash_http_unavailable_total',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(f.has(name), name).toBe(true);
    }
    expect(Number(sample(f, 'dash_database_size_bytes')?.value)).toBeGreaterThan(0);
    expect(Number(sample(f, 'dash_ingest_inflight_reports')?.value)).toBe(0);
    // The node, with its labels (a name needing escapes survives the round trip).
    const labels = { node_id: String(node.id), node: 'web "01"', group: 'default' };
    const report = agentReport({ seq: 0 });
    expect(Number(sample(f, 'node_load1', labels)?.value)).toBe(report.metrics.cpu.load1);
    expect(Number(sample(f, 'dash_node_cpu_usage_ratio', labels)?.value)).toBe(
      report.metrics.cpu.usage_ratio,
    );
    expect(Number(sample(f, 'node_memory_MemTotal_bytes', labels)?.value)).toBeGreaterThan(0);
    expect(
      sample(f, 'node_network_receive_bytes_total', { ...labels, interface: 'eth0' }),
    ).toBeDefined();
    expect(f.get('node_network_receive_bytes_total')?.type).toBe('COUNTER');
    expect(f.get('dash_node_disk_read_bytes_per_second')?.metrics[0]?.labels?.device).toBeTruthy();
    expect(f.get('node_filesystem_size_bytes')?.metrics[0]?.labels?.mountpoint).toBeTruthy();
    expect(sample(f, 'node_uname_info', labels)?.labels?.sysname).toBe('linux');
    expect(Number(sample(f, 'dash_node_up', labels)?.value)).toBe(1);
    expect(Number(sample(f, 'dash_nodes', { state: 'online' })?.value)).toBe(1);
    expect(Number(sample(f, 'dash_node_last_report_timestamp_seconds', labels)?.value)).toBe(
      t.deps.front.receivedAt(node.id)! / 1000,
    );
  });

  it('counts rejected reports by error code', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { ...json, 'x-node-secret': node.secret },
      payload: '{"version": 5}',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const f = parseExposition(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer })).body,
    );
    const code = res.json<{ code: string }>().code;
    expect(Number(sample(f, 'dash_ingest_reports_total', { result: code })?.value)).toBe(1);
  });

  it('marks a node down once it is past the offline threshold, without a refresh', async () => {
    t.clock.advance(t.config.nodeOfflineThresholdMs + 1000);
    const f = parseExposition(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer })).body,
    );
    expect(Number(sample(f, 'dash_node_up', { node_id: String(node.id) })?.value)).toBe(0);
    expect(Number(sample(f, 'dash_nodes', { state: 'offline' })?.value)).toBe(1);
  });
});

describe('node exposition cache', () => {
  let t: TestApp;
  const nodes: Array<{ id: number; secret: string }> = [];

  beforeAll(async () => {
    t = await buildTestApp({ DASH_METRICS_ENABLED: 'true', DASH_METRICS_TOKEN: TOKEN });
    nodes.push(await addReportingNode(t, 'alpha'), await addReportingNode(t, 'beta'));
  });
  afterAll(async () => t.close());

  const scrape = async () =>
    parseExposition((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer })).body);

  it('reads the nodes another instance reported first, as an instance that does not lead', async () => {
    t.deps.front.follow([nodes[1]!.id]);
    const f = await scrape();
    expect(t.deps.front.unreadFollowed).toBe(0);
    expect(Number(sample(f, 'dash_node_up', { node_id: String(nodes[1]!.id) })?.value)).toBe(1);
  });

  // Counts the statements prepared on SQLite's connection (the memory-only claim is engine-free).
  itSqliteOnly(
    're-renders only nodes that reported since the last refresh, from memory',
    async () => {
      const nodesPart = t.deps.telemetry!.nodes;
      await scrape();
      const views: number[] = [];
      const original = t.deps.front.view.bind(t.deps.front);
      t.deps.front.view = (id: number) => {
        views.push(id);
        return original(id);
      };
      const raw = t.raw;
      const prepare = raw.prepare.bind(raw);
      let statements = 0;
      raw.prepare = (sql: string) => {
        statements++;
        return prepare(sql);
      };
      try {
        t.clock.advance(3000);
        await report(t, nodes[0]!.secret, 7);
        views.length = 0;
        statements = 0;
        await nodesPart.scrape(t.clock.now());
        // The node part of a scrape reads memory only.
        expect(statements).toBe(0);
        const before = await scrape();
        // Within the refresh interval a scrape serves the cache as it is.
        expect(views).toEqual([]);
        const load = agentReport({ seq: 7 }).metrics.cpu.load1;
        expect(Number(sample(before, 'node_load1', { node: 'alpha' })?.value)).toBe(
          agentReport({ seq: 0 }).metrics.cpu.load1,
        );
        statements = 0;
        await nodesPart.refresh(t.clock.now());
        expect(views).toEqual([nodes[0]!.id]);
        // One read of the group memberships per refresh, whatever the number of nodes.
        expect(statements).toBeLessThanOrEqual(1);
        const after = await scrape();
        expect(Number(sample(after, 'node_load1', { node: 'alpha' })?.value)).toBe(load);
      } finally {
        t.deps.front.view = original;
        raw.prepare = prepare;
      }
    },
  );

  it('assembles each family once, with every node’s lines under its header', async () => {
    // The cache keys a node's lines by its receive time: later tests' reports must not share
    // the time of the reports cached here.
    t.clock.advance(3000);
    await t.deps.telemetry!.nodes.refresh(t.clock.now());
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    const lines = res.body.split('\n');
    const seen = new Set<string>();
    let family: string | undefined;
    const nodesOf = new Map<string, Set<string>>();
    for (const line of lines) {
      const type = /^# TYPE (\S+) /.exec(line);
      if (type) {
        expect(seen.has(type[1]!)).toBe(false);
        seen.add(type[1]!);
        family = type[1]!;
        continue;
      }
      if (line === '' || line.startsWith('#')) continue;
      const name = /^[a-zA-Z_:0-9]+/.exec(line)![0];
      // Counters and gauges: a sample carries its family's name (histograms add suffixes).
      expect(name.startsWith(family!), `${family}: ${line}`).toBe(true);
      const node = /node="([^"]*)"/.exec(line)?.[1];
      if (node) nodesOf.set(name, (nodesOf.get(name) ?? new Set()).add(node));
    }
    expect([...(nodesOf.get('node_load1') ?? [])].sort()).toEqual(['alpha', 'beta']);
    expect([...(nodesOf.get('node_network_receive_bytes_total') ?? [])].sort()).toEqual([
      'alpha',
      'beta',
    ]);
  });

  it('rebuilds a cache older than two refresh intervals before answering', async () => {
    await report(t, nodes[1]!.secret, 9);
    t.clock.advance(2 * t.config.metrics.refreshIntervalMs + 1);
    const f = await scrape();
    expect(Number(sample(f, 'node_load1', { node: 'beta' })?.value)).toBe(
      agentReport({ seq: 9 }).metrics.cpu.load1,
    );
  });

  it('refreshes from the job only while someone scrapes', async () => {
    const job = t.deps.scheduler;
    expect(job).toBeDefined();
    const nodesPart = t.deps.telemetry!.nodes;
    let rebuilt = 0;
    const refresh = nodesPart.refresh.bind(nodesPart);
    nodesPart.refresh = (now: number) => {
      rebuilt++;
      return refresh(now);
    };
    await nodesPart.refreshIfScraped(t.clock.now());
    expect(rebuilt).toBe(1);
    t.clock.advance(11 * 60_000);
    await nodesPart.refreshIfScraped(t.clock.now());
    expect(rebuilt).toBe(1);
    nodesPart.refresh = refresh;
  });

  it('drops a deleted node and follows renames', async () => {
    const admin = await adminHeaders(t);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/nodes/${nodes[1]!.id}`,
      headers: admin,
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodes[0]!.id}`,
      headers: { ...admin, ...json },
      payload: { name: 'alpha-2' },
    });
    await t.deps.telemetry!.nodes.refresh(t.clock.now());
    const f = await scrape();
    const names = new Set(f.get('node_load1')?.metrics.map((m) => m.labels?.node));
    expect([...names]).toEqual(['alpha-2']);
  });
});

describe('GET /metrics with an allow-list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ DASH_METRICS_ENABLED: 'true', DASH_METRICS_ALLOW: '10.0.0.0/8' });
  });
  afterAll(async () => t.close());

  it('answers 403 forbidden to other addresses and serves listed ones without a token', async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '192.0.2.7',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(ok.statusCode).toBe(200);
    expect(parseExposition(ok.body).has('dash_node_up')).toBe(true);
  });
});

describe('GET /metrics with an allow-list and a token', () => {
  it('requires both', async () => {
    const t = await buildTestApp({
      DASH_METRICS_ENABLED: 'true',
      DASH_METRICS_ALLOW: '127.0.0.1',
      DASH_METRICS_TOKEN: TOKEN,
    });
    try {
      const cases: Array<[string, Record<string, string>, number]> = [
        ['127.0.0.1', bearer, 200],
        ['127.0.0.1', {}, 401],
        ['192.0.2.7', bearer, 403],
      ];
      for (const [remoteAddress, headers, status] of cases) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
        expect(res.statusCode, `${remoteAddress} ${JSON.stringify(headers)}`).toBe(status);
      }
    } finally {
      await t.close();
    }
  });
});

describe('docs/grafana-dashboard.json', () => {
  it('queries only metric names that /metrics exposes', async () => {
    const t = await buildTestApp({ DASH_METRICS_ENABLED: 'true', DASH_METRICS_TOKEN: TOKEN });
    try {
      await addReportingNode(t, 'grafana');
      const f = parseExposition(
        (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer })).body,
      );
      const dashboard = readFileSync(
        new URL('../../../docs/grafana-dashboard.json', import.meta.url),
        'utf8',
      );
      const exprs = [...dashboard.matchAll(/"(?:expr|query)": "((?:[^"\\]|\\.)*)"/g)].map(
        (m) => m[1]!,
      );
      const names = new Set(
        exprs.flatMap((e) =>
          [...e.matchAll(/\b(?:dash|node|nodejs|process)_[A-Za-z0-9_]+/g)].map((m) => m[0]),
        ),
      );
      expect(names.size).toBeGreaterThan(20);
      for (const name of names) {
        const family = name.replace(/_bucket$/, '');
        expect(f.has(family), name).toBe(true);
      }
    } finally {
      await t.close();
    }
  });
});
