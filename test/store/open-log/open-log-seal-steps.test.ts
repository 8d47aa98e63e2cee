import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeRecord,
  encodeProjection,
  encodeSample,
  PROJECTION,
} from '../../../src/store/history-blocks/open-log-record.js';
import { encodeStoredDevices } from '../../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../../src/store/sqlite/history-source.js';
import { HOST_COLUMNS } from '../../../src/store/sqlite/metrics-codec.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { watermarks } from '../../../src/store/sqlite/metrics-jobs-state.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { LogSeal, sealOpenLog, sealedWatermark } from '../../../src/store/sqlite/open-log-seal.js';
import { SealRun, planSeal, sealEverything } from '../../../src/store/sqlite/open-logs.js';
import { SEAL_GRACE_MS } from '../../../src/store/sqlite/history-blocks.js';
import { tempHome } from '../../support/build-app.js';
import { seedNodes } from '../../support/seed-home.js';

const SEAL = 300_000;
const T0 = 1_764_000_000_000 - (1_764_000_000_000 % SEAL);
const END = T0 + 1.5 * SEAL;
const BOUNDARY = T0 + SEAL;
const NODES = 12;

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

/** A log where every node reports every 10 s over one closed and half an open window. */
async function fixture() {
  const home = tempHome();
  await seedNodes(home, NODES);
  const dbPath = join(home, 'dash.db');
  const logPath = `${dbPath}-open-0`;
  const db = openSqliteConnection(dbPath, 'ingest');
  const log = OpenLogFile.open(logPath, { shard: 0, from: 0 });
  const times: number[] = [];
  for (let at = T0; at < END; at += 10_000) {
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
    }
    log.append(batch);
  }
  for (let node = 1; node <= NODES; node++) log.append([projection(node, T0 + 1000)]);
  log.syncNow();
  const index = new OpenLogIndex(logPath);
  return { dbPath, logPath, db, log, index, times };
}

const currentAt = (db: ReturnType<typeof openSqliteConnection>, node: number) =>
  db.prepare('SELECT received_at FROM node_current WHERE node_id = ?').pluck().get(node);

const blockPoints = (db: ReturnType<typeof openSqliteConnection>, node: number) =>
  db
    .prepare('SELECT coalesce(sum(count), 0) FROM metrics_blocks WHERE node_id = ?')
    .pluck()
    .get(node);

describe('sealing the open-block log in steps', () => {
  it('commits node ranges one short transaction at a time, readers seeing every point once', async () => {
    const { db, log, index, times } = await fixture();
    const source = historySource(db, { logs: () => [index] });
    // A step ends once it wrote 1 byte: one node per transaction.
    const seal = new LogSeal(db, index, 0, BOUNDARY, SEAL, 1);
    let steps = 0;
    while (seal.step()) {
      steps++;
      for (let node = 1; node <= NODES; node++) expect(source.times(node, 0, END)).toEqual(times);
    }
    expect(steps).toBe(NODES);
    expect(watermarks(db).get(sealedWatermark(0))).toBeUndefined();
    seal.finish();
    expect(watermarks(db).get(sealedWatermark(0))).toBe(BOUNDARY);
    for (let node = 1; node <= NODES; node++) {
      expect(source.times(node, 0, END)).toEqual(times);
      expect(blockPoints(db, node)).toBe(times.filter((at) => at < BOUNDARY).length);
    }
    log.close();
    index.close();
    db.close();
  });

  it('resumes a seal a crash interrupted, sealing no point twice and rewriting no projection', async () => {
    const { dbPath, logPath, db, log, index, times } = await fixture();
    const seal = new LogSeal(db, index, 0, BOUNDARY, SEAL, 1);
    seal.step();
    seal.step();
    const done = Array.from({ length: NODES }, (_, i) => i + 1).filter(
      (n) => (blockPoints(db, n) as number) > 0,
    );
    expect(done).toEqual([1, 2]);
    // The crash: the log is neither rotated nor told; a restart seals what it holds.
    log.close();
    index.close();
    db.close();

    const db2 = openSqliteConnection(dbPath, 'ingest');
    const updates: number[] = [];
    db2.function('note_update', (node: number) => void updates.push(node));
    db2.exec(`CREATE TEMP TRIGGER note AFTER UPDATE ON main.node_current
      BEGIN SELECT note_update(NEW.node_id); END`);
    const reopened = OpenLogFile.open(logPath, { shard: 0, from: 0 });
    const index2 = new OpenLogIndex(logPath);
    // A seal planned now finishes the interrupted one first, to the same boundary.
    expect(planSeal(db2, reopened, index2, 0, END + SEAL + SEAL_GRACE_MS, SEAL)?.boundary).toBe(
      BOUNDARY,
    );
    sealEverything(db2, reopened, index2, 0, SEAL);
    for (let node = 1; node <= NODES; node++) {
      expect(blockPoints(db2, node)).toBe(times.length);
      expect(historySource(db2).times(node, 0, END)).toEqual(times);
      expect(currentAt(db2, node)).toBe(T0 + 1000);
    }
    // The nodes whose projections the interrupted seal stored were not written again.
    expect(updates.filter((n) => done.includes(n))).toEqual([]);
    reopened.close();
    index2.close();
    db2.close();
  });

  it('does not rewrite a projection already stored when a log is sealed again', async () => {
    const { db, log, index } = await fixture();
    expect(sealOpenLog(db, index, 0, BOUNDARY, SEAL).projections).toBe(NODES);
    // A crash before the rotation: the next start seals the same records again.
    const again = sealOpenLog(db, index, 0, BOUNDARY, SEAL);
    expect(again).toEqual({ blocks: 0, points: 0, projections: 0 });
    log.close();
    index.close();
    db.close();
  });

  it('copies the open records in steps, with records appended between them', async () => {
    const { db, log, index, logPath, times } = await fixture();
    // One node per seal step, then 256 bytes of the old log per copy step.
    const run = new SealRun(new LogSeal(db, index, 0, BOUNDARY, SEAL, 1), log, 256);
    let at = END;
    let steps = 0;
    while (run.step()) {
      steps++;
      log.append([encodeSample({ node: 1, at, host: host(at), devices: new Uint8Array() })]);
      at += 1000;
    }
    run.finish();
    expect(steps).toBeGreaterThan(NODES);
    const kept = OpenLogFile.open(logPath, { shard: 0, from: 0 });
    const open = times.filter((t) => t >= BOUNDARY).length * NODES + steps;
    expect(kept.replayed.payloads.map((p) => decodeRecord(p).at >= BOUNDARY)).toEqual(
      Array(open).fill(true),
    );
    kept.close();
    index.refresh();
    expect(historySource(db, { logs: () => [index] }).times(1, END, at)).toHaveLength(steps);
    log.close();
    index.close();
    db.close();
  });

  it('keeps in the log a projection that arrived after its node was sealed', async () => {
    const { db, log, index, logPath } = await fixture();
    const run = new SealRun(new LogSeal(db, index, 0, BOUNDARY, SEAL, 1), log);
    run.step();
    // Node 1 was in the first range; its next projection comes while the seal goes on.
    log.append([projection(1, END + 5)]);
    log.syncNow();
    run.finish();
    expect(currentAt(db, 1)).toBe(T0 + 1000);
    const kept = OpenLogFile.open(logPath, { shard: 0, from: 0 });
    const projections = kept.replayed.payloads
      .map((p) => decodeRecord(p))
      .filter((r) => r.type === PROJECTION);
    expect(projections.map((r) => [r.node, r.at])).toEqual([[1, END + 5]]);
    kept.close();
    // The next seal stores it, and nothing else.
    index.refresh();
    expect(sealOpenLog(db, index, 0, BOUNDARY + SEAL, SEAL).projections).toBe(1);
    expect(currentAt(db, 1)).toBe(END + 5);
    log.close();
    index.close();
    db.close();
  });
});
