import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeRecord,
  encodeProjection,
  encodeSample,
  PROJECTION,
} from '../../../src/store/history-blocks/open-log-record.js';
import { encodeStoredDevices, SEAL_GRACE_MS } from '../../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../../src/store/sqlite/history-source.js';
import { HOST_COLUMNS } from '../../../src/store/sqlite/metrics-codec.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { CURRENT_REFRESH_SEALS, currentSlice } from '../../../src/store/sqlite/open-log-seal.js';
import { planSeal, sealEverything, sealLeftLogs } from '../../../src/store/sqlite/open-logs.js';
import { tempHome } from '../../support/build-app.js';
import { seedNodes } from '../../support/seed-home.js';

const SEAL = 300_000;
const T0 = 1_764_000_000_000 - (1_764_000_000_000 % SEAL);
const NODES = 24;

const host = (at: number) =>
  Array.from({ length: HOST_COLUMNS.length }, (_, i) => (i === 0 ? at % 10_000 : null));

const projection = (node: number, at: number) =>
  encodeProjection({
    node,
    at,
    reportedAt: at,
    runtimeJson: `{"at":${at}}`,
    smartJson: null,
    thermalJson: null,
    pressureJson: null,
  });

type Db = ReturnType<typeof openSqliteConnection>;
const currentAt = (db: Db, node: number) =>
  db.prepare('SELECT received_at FROM node_current WHERE node_id = ?').pluck().get(node) as
    number | undefined;

/** Every node reports every 10 s from `from` to `to`, with a projection every 40 s. */
function report(log: OpenLogFile, from: number, to: number, times: number[]): void {
  for (let at = from; at < to; at += 10_000) {
    times.push(at);
    const batch = [];
    for (let node = 1; node <= NODES; node++) {
      batch.push(
        encodeSample({
          node,
          at,
          host: host(at),
          devices: encodeStoredDevices([{ kind: 2, id: 9, values: [at % 7, 1, 2, 3, 4] }]),
        }),
      );
      if ((at - T0) % 40_000 === 0) batch.push(projection(node, at));
    }
    log.append(batch);
  }
  log.syncNow();
}

/** Time of the last projection `report` wrote before `to`. */
function newestProjection(to: number): number {
  let at = T0;
  while (at + 40_000 < to) at += 40_000;
  return at;
}

async function fixture() {
  const home = tempHome();
  await seedNodes(home, NODES);
  const dbPath = join(home, 'dash.db');
  const logPath = `${dbPath}-open-0`;
  const db = openSqliteConnection(dbPath, 'ingest');
  const log = OpenLogFile.open(logPath, { shard: 0, from: 0 });
  const index = new OpenLogIndex(logPath);
  return { dbPath, logPath, db, log, index };
}

const projectionsIn = (logPath: string) => {
  const f = OpenLogFile.open(logPath, { shard: 0, from: 0 });
  const out = f.replayed.payloads
    .map((p) => decodeRecord(p))
    .filter((r) => r.type === PROJECTION)
    .map((r) => [r.node, r.at]);
  f.close();
  return out;
};

/** Runs a running server's seal (carry) at `now` to its end. */
function carrySeal(db: Db, log: OpenLogFile, index: OpenLogIndex, now: number) {
  const run = planSeal(db, log, index, 0, now, SEAL, undefined, true)!;
  while (run.step());
  return { run, result: run.finish() };
}

describe('carrying projections forward instead of rewriting node_current at every seal', () => {
  it('stores one slice of the nodes per seal, each node once in CURRENT_REFRESH_SEALS seals', () => {
    for (const boundary of [T0, T0 + SEAL]) {
      const inSlice = currentSlice(boundary, SEAL);
      const picked = Array.from({ length: 12_000 }, (_, n) => n).filter(inSlice).length;
      // A hash slice: about 1/12 of the ids, odd and even alike (the two ingest threads).
      expect(picked).toBeGreaterThan(800);
      expect(picked).toBeLessThan(1200);
    }
    for (let node = 1; node <= 50; node++) {
      const slices = Array.from({ length: CURRENT_REFRESH_SEALS }, (_, s) =>
        currentSlice(T0 + s * SEAL, SEAL)(node),
      );
      expect(slices.filter(Boolean)).toHaveLength(1);
    }
  });

  it('keeps only the newest projection of each node in the next log and stores the slice', async () => {
    const { db, log, index, logPath } = await fixture();
    const times: number[] = [];
    report(log, T0, T0 + 1.5 * SEAL, times);
    const boundary = T0 + SEAL;
    const { result, run } = carrySeal(db, log, index, boundary + SEAL_GRACE_MS);
    const slice = currentSlice(boundary, SEAL);
    const stored = Array.from({ length: NODES }, (_, i) => i + 1).filter(slice);
    expect(result.projections).toBe(stored.length);
    expect(run.written.carried).toBe(NODES - stored.length);
    const newest = newestProjection(T0 + 1.5 * SEAL);
    for (let node = 1; node <= NODES; node++) {
      // node_current holds the seeded first report's projection unless the node is in the slice.
      if (stored.includes(node)) expect(currentAt(db, node)).toBe(newest);
      else expect(currentAt(db, node) ?? 0).toBeLessThan(T0);
    }
    // One projection per node carried (the newest; those stored stay only if newer arrived).
    const kept = projectionsIn(logPath);
    expect(kept.map(([n]) => n).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: NODES }, (_, i) => i + 1).filter((n) => !stored.includes(n)),
    );
    for (const [, at] of kept) expect(at).toBe(newest);
    // A second seal of the next window does not let the carried records pile up.
    report(log, T0 + 1.5 * SEAL, T0 + 2.5 * SEAL, times);
    carrySeal(db, log, index, T0 + 2 * SEAL + SEAL_GRACE_MS);
    const again = projectionsIn(logPath);
    expect(new Set(again.map(([n]) => n)).size).toBe(again.length);
    // Every point is read once, from blocks and the log together.
    index.refresh();
    const source = historySource(db, { logs: () => [index] });
    for (let node = 1; node <= NODES; node++) {
      expect(source.times(node, 0, T0 + 3 * SEAL)).toEqual(times);
    }
    log.close();
    index.close();
    db.close();
  });

  it('a stop stores every carried projection in node_current', async () => {
    const { db, log, index } = await fixture();
    report(log, T0, T0 + 1.5 * SEAL, []);
    carrySeal(db, log, index, T0 + SEAL + SEAL_GRACE_MS);
    const newest = newestProjection(T0 + 1.5 * SEAL);
    sealEverything(db, log, index, 0, SEAL);
    for (let node = 1; node <= NODES; node++) expect(currentAt(db, node)).toBe(newest);
    log.close();
    index.close();
    db.close();
  });

  it('after a crash, the start stores the carried projections and every acknowledged point', async () => {
    const { dbPath, db, log, index } = await fixture();
    const times: number[] = [];
    report(log, T0, T0 + 1.5 * SEAL, times);
    carrySeal(db, log, index, T0 + SEAL + SEAL_GRACE_MS);
    report(log, T0 + 1.5 * SEAL, T0 + 1.7 * SEAL, times);
    const newest = newestProjection(T0 + 1.7 * SEAL);
    // The crash: nothing closes; the start seals what the log holds.
    const db2 = openSqliteConnection(dbPath, 'ingest');
    sealLeftLogs(db2, dbPath);
    for (let node = 1; node <= NODES; node++) {
      expect(currentAt(db2, node)).toBe(newest);
      expect(historySource(db2).times(node, 0, T0 + 2 * SEAL)).toEqual(times);
    }
    db2.close();
    log.close();
    index.close();
    db.close();
  });
});
