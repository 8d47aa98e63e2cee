/**
 * Per-report CPU of the HTTP thread's work that this file's cuts replaced (docs/postgresql.md
 * "The live projection"), old way against new way, alternating, on the calling thread (no
 * database): statement parameters of a 500-report commit (raw history bigint columns through
 * node-postgres' array escaping, against literals; projection documents as JSON arrays of
 * strings, against joined bytes), and the alert leader's readings and counters of a re-read
 * report (parsing the rendered view, against the objects it is rendered from).
 *
 *   node --import tsx bench/pg/http-thread-costs.ts
 */
import { loadavg } from 'node:os';
import { deserialize, serialize } from 'node:v8';
import { createRequire } from 'node:module';
import { alertReadings } from '../../src/domain/alerts/readings.js';
import { bodyJson, renderBody, type RenderFacts } from '../../src/domain/front/render.js';
import { runtimeView } from '../../src/domain/front/runtime-view.js';
import {
  pressureJson,
  pressureView,
  smartView,
  thermalView,
} from '../../src/domain/front/side-views.js';
import { bodyReadings } from '../../src/domain/ingest/report-digest.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import { emptyStaticInfo, mergeStaticInfo } from '../../src/domain/nodes/static-info.js';
import type { NodeView, SmartView, ThermalView } from '../../src/protocol/front-view.js';
import { bigintArray, docColumns, encodeDocs } from '../../src/store/postgres/array-params.js';
import { HOST_COLUMNS } from '../../src/store/sqlite/metrics-codec.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { agentStatic } from '../../test/support/agent-static.js';

const require = createRequire(import.meta.url);
const { prepareValue } = require('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };

const ROWS = 500;
const ROUNDS = 7;
const j = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

const reports = Array.from({ length: ROWS }, (_, i) => {
  const r = agentReport({ seq: i });
  const v = validateMetricsReport(r);
  const m = v.metrics;
  const runtime = runtimeView(m, 1_764_000_000_000 + i, v.reportedAt, r.timestamp);
  const smart = smartView(m.disk?.smart);
  const thermal = thermalView(m.thermal);
  return {
    runtime,
    smart,
    thermal,
    docs: [JSON.stringify(runtime), j(smart), j(thermal), pressureJson(pressureView(m.pressure))],
    host: HOST_COLUMNS.map((_, k) => (k % 7 === 6 ? null : 1_000_000 + i * 31 + k)),
  };
});
const facts: RenderFacts = {
  os: 'linux',
  platform: 'debian',
  platformVersion: '12',
  kernelVersion: '6.1',
  arch: 'x86_64',
  static: mergeStaticInfo(emptyStaticInfo(), agentStatic(), 0),
};
const packed = reports.map((r) => encodeDocs(r.docs));
const bodies = reports.map((r) =>
  bodyJson(renderBody(facts, r.runtime, 30), {
    smartJson: r.docs[1]!,
    thermalJson: r.docs[2]!,
    pressureJson: r.docs[3]!,
  }),
);
const oldMessage = serialize(reports.map((r, i) => ({ docs: r.docs, body: bodies[i] })));
const newMessage = serialize(
  packed.map((docs, i) => ({ docs, body: new Uint8Array(Buffer.from(bodies[i]!)) })),
);
const wire = Buffer.alloc(4 << 20);

const cases: Record<string, Record<'old' | 'new', () => unknown>> = {
  'raw history bigint[] params': {
    old: () => HOST_COLUMNS.map((_, k) => prepareValue(reports.map((r) => r.host[k]))),
    new: () => HOST_COLUMNS.map((_, k) => prepareValue(bigintArray(reports.map((r) => r.host[k])))),
  },
  'projection document params': {
    old: () => [0, 1, 2, 3].map((c) => JSON.stringify(reports.map((r) => r.docs[c]))),
    new: () => docColumns(packed, 4),
  },
  // What the HTTP thread did with a batch's documents and view bodies from the moment they
  // arrived: take them from the message (v8.deserialize; the new way's buffer is copied here
  // where postMessage transfers it, so it is overstated), write the bodies into the view arena
  // and the parameters into node-postgres' message buffer (both UTF-8 writes or copies).
  'batch docs + bodies, arrival to wire': {
    old: () => {
      const got = deserialize(oldMessage) as Array<{ docs: string[]; body: string }>;
      for (const r of got) wire.write(r.body, 0, 'utf8');
      for (const p of [0, 1, 2, 3].map((c) => JSON.stringify(got.map((r) => r.docs[c]))))
        wire.write(p, 0, 'utf8');
    },
    new: () => {
      const got = deserialize(newMessage) as Array<{ docs: Uint8Array; body: Uint8Array }>;
      for (const r of got) wire.set(r.body, 0);
      for (const p of docColumns(
        got.map((r) => r.docs),
        4,
      ))
        wire.set(p, 0);
    },
  },
  'leader readings + counters': {
    old: () =>
      reports.map((r) => {
        const body = renderBody(facts, r.runtime, 30);
        const view = JSON.parse(
          `{"node":{"id":"1","title":"n"},${bodyJson(body, { smartJson: r.docs[1]!, thermalJson: r.docs[2]!, pressureJson: r.docs[3]! })}}`,
        ) as NodeView;
        return [alertReadings(view), view.network.by_interface?.length];
      }),
    new: () =>
      reports.map((r) => {
        const body = renderBody(facts, r.runtime, 30);
        bodyJson(body, {
          smartJson: r.docs[1]!,
          thermalJson: r.docs[2]!,
          pressureJson: r.docs[3]!,
        });
        const smart = JSON.parse(r.docs[1]!) as SmartView;
        const thermal = JSON.parse(r.docs[2]!) as ThermalView;
        return [bodyReadings(body, smart, thermal), r.runtime.network.by_interface?.length];
      }),
  },
};

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${ROWS} reports per call, best of ${ROUNDS} rounds (µs per report)`,
);
for (const [name, ways] of Object.entries(cases)) {
  const best = { old: Infinity, new: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ['old', 'new'] as const) {
      const start = process.cpuUsage();
      for (let k = 0; k < 10; k++) ways[way]();
      const used = process.cpuUsage(start);
      best[way] = Math.min(best[way], (used.user + used.system) / (10 * ROWS));
    }
  }
  console.log(`  ${name.padEnd(30)} old ${best.old.toFixed(2)}  new ${best.new.toFixed(2)}`);
}
