/**
 * Per-report CPU of the HTTP thread's work that this file's cuts replaced (docs/postgresql.md
 * "The live projection"), old way against new way, alternating, on the calling thread (no
 * database): statement parameters of a 500-report commit (raw history bigint columns through
 * node-postgres' array escaping, against literals; projection documents as JSON arrays of
 * strings, against joined bytes), and the alert leader's readings and counters of a re-read
 * report (parsing the rendered view, against the objects it is rendered from); and an instance
 * that is not the leader following another instance's reports (re-reading and rendering each,
 * against noting the node and rendering on the first read). The follower cases read the
 * projections from memory: the row read itself (protocol, strings), which the new way also
 * skips while nobody reads, is not counted.
 *
 *   node --import tsx bench/pg/http-thread-costs.ts
 */
import { loadavg } from 'node:os';
import { deserialize, serialize } from 'node:v8';
import { createRequire } from 'node:module';
import { alertReadings } from '../../src/domain/alerts/readings.js';
import { FrontState } from '../../src/domain/front/front-state.js';
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
import type { CurrentRow, FrontRepo } from '../../src/store/ports.js';
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

/**
 * A front state holding ROWS nodes, whose repo answers each read with the reports of `reports`
 * as the other instance stored them, each read newer than the last.
 */
async function followingFront(): Promise<FrontState> {
  let stored = 1_764_000_000_000;
  // Each read's runtime documents carry its receive time, as stored ones do (fresh strings,
  // flattened when parsed, as node-postgres' would be).
  const runtimes = reports.map((r) => {
    const json = JSON.stringify({ ...r.runtime, receivedAt: 0 });
    const at = json.indexOf('"receivedAt":0') + '"receivedAt":'.length;
    return [json.slice(0, at), json.slice(at + 1)] as const;
  });
  const repo: FrontRepo = {
    liveNodes: async () =>
      reports.map((_, i) => ({
        id: i + 1,
        name: `node-${i + 1}`,
        tags: '[]',
        displayOrder: 0,
        guestVisible: true,
        os: facts.os,
        platform: facts.platform,
        platformVersion: facts.platformVersion,
        kernelVersion: facts.kernelVersion,
        arch: facts.arch,
        staticJson: JSON.stringify(facts.static),
      })),
    currentRows: async (ids) => {
      stored += 3000;
      return (ids ?? reports.map((_, i) => i + 1)).map((id): CurrentRow => ({
        nodeId: id,
        receivedAt: stored,
        reportedAt: stored,
        firstReceivedAt: 0,
        runtimeJson: runtimes[id - 1]![0] + stored + runtimes[id - 1]![1],
        smartJson: reports[id - 1]!.docs[1] ?? null,
        thermalJson: reports[id - 1]!.docs[2] ?? null,
        pressureJson: reports[id - 1]!.docs[3] ?? null,
      }));
    },
  };
  const front = new FrontState({ repo, staleAfterSec: 30, warn: () => {} });
  await front.load();
  return front;
}
const ids = reports.map((_, i) => i + 1);
const eager = await followingFront();
const lazy = await followingFront();
const readAll = (front: FrontState) => ids.map((id) => front.jsonBytes(id)?.length);

const cases: Record<string, Record<'old' | 'new', () => unknown>> = {
  // The instance that is not the alert leader, nobody reading its front views.
  'follower, no reads': {
    old: () => eager.refreshCurrent(ids),
    new: () => lazy.follow(ids),
  },
  // The same with a read of every view after each report: the read pays what following did.
  'follower, read after each': {
    old: async () => {
      await eager.refreshCurrent(ids);
      return readAll(eager);
    },
    new: async () => {
      lazy.follow(ids);
      await lazy.catchUp();
      return readAll(lazy);
    },
  },
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
      for (let k = 0; k < 10; k++) await ways[way]();
      const used = process.cpuUsage(start);
      best[way] = Math.min(best[way], (used.user + used.system) / (10 * ROWS));
    }
  }
  console.log(`  ${name.padEnd(30)} old ${best.old.toFixed(2)}  new ${best.new.toFixed(2)}`);
}
