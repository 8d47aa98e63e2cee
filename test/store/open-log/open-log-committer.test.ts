import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MetricsWrite } from '../../../src/store/ports.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { historySource } from '../../../src/store/sqlite/history-source.js';
import { MetricsEngine, checkpointDelay } from '../../../src/store/sqlite/metrics-engine.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogCommitter } from '../../../src/store/sqlite/open-log-committer.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { tempHome } from '../../support/build-app.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { seedNodes } from '../../support/seed-home.js';

const T0 = 1_764_000_000_000;

async function database() {
  const home = tempHome();
  await seedNodes(home, 2);
  return join(home, 'dash.db');
}

describe('open-log committer', () => {
  it('keeps what MetricsEngine keeps, with the same outcomes, in the log', async () => {
    const rawDb = openSqliteConnection(await database());
    const logPath = await database();
    const db = openSqliteConnection(logPath);
    const log = OpenLogFile.open(`${logPath}-open-0`, { shard: 0, from: 0 });
    const engine = new MetricsEngine(rawDb, () => T0);
    const committer = new OpenLogCommitter(db, log, () => T0);
    const batches: MetricsWrite[][] = [
      [metricsWrite(1, T0, { seq: 1 }), metricsWrite(2, T0 + 1, { seq: 2 })],
      // Node 1: an older report (history only) and one whose deadline has passed.
      [
        metricsWrite(1, T0 + 3000, { seq: 3 }),
        metricsWrite(1, T0 + 2000, { seq: 4 }),
        metricsWrite(2, T0 + 3001, { seq: 5, deadline: T0 - 1 }),
      ],
      [metricsWrite(1, T0 + 6000, { seq: 6 })],
    ];
    for (const b of batches) {
      expect(committer.commitBatch(b)).toEqual(engine.commitBatch(b));
    }
    log.syncNow();
    const index = new OpenLogIndex(`${logPath}-open-0`);
    const fromLog = historySource(db, { logs: () => [index] });
    const fromRaw = historySource(rawDb);
    for (const node of [1, 2]) {
      expect(fromLog.rows(node, 0, T0 + 10_000)).toEqual(fromRaw.rows(node, 0, T0 + 10_000));
    }
    expect(fromLog.times(1, 0, T0 + 10_000)).toEqual([T0, T0 + 2000, T0 + 3000, T0 + 6000]);
    expect(fromLog.times(2, 0, T0 + 10_000)).toEqual([T0 + 1]);
    log.close();
    index.close();
  });

  it('stores a node’s first projection in node_current, later ones in the log once due', async () => {
    const path = await database();
    const db = openSqliteConnection(path);
    const log = OpenLogFile.open(`${path}-open-0`, { shard: 0, from: 0 });
    const committer = new OpenLogCommitter(db, log, () => T0);
    const index = new OpenLogIndex(`${path}-open-0`);
    const due = checkpointDelay(1);
    const projectionAt = () => {
      index.refresh();
      return index.projection(1)?.at;
    };
    const stored = () => db.prepare('SELECT received_at FROM node_current').pluck().all();
    committer.commitBatch([metricsWrite(1, T0, { deadline: Infinity })]);
    expect(committer.sqliteWritten).toBe(true); // new devices, the address, node_current
    // Every reporting node has its row at once (uptime and the front view list nodes by it).
    expect(stored()).toEqual([T0]);
    expect(projectionAt()).toBeUndefined();
    committer.commitBatch([metricsWrite(1, T0 + due - 1, { deadline: Infinity })]);
    expect(committer.sqliteWritten).toBe(false); // nothing new: the WAL needs no sync
    expect(projectionAt()).toBeUndefined();
    committer.commitBatch([metricsWrite(1, T0 + due, { deadline: Infinity })]);
    expect(projectionAt()).toBe(T0 + due);
    expect(index.times(1, 0, Infinity)).toEqual([T0, T0 + due - 1, T0 + due]);
    expect(stored()).toEqual([T0]); // the log's projection reaches node_current at the seal
    log.close();
    index.close();
  });

  it('moves a report to the next free millisecond as metrics_raw does, in a batch and across', async () => {
    const rawDb = openSqliteConnection(await database());
    const path = await database();
    const db = openSqliteConnection(path);
    const log = OpenLogFile.open(`${path}-open-0`, { shard: 0, from: 0 });
    const engine = new MetricsEngine(rawDb, () => T0);
    const committer = new OpenLogCommitter(db, log, () => T0);
    const w = (node: number, at: number, seq: number) =>
      metricsWrite(node, at, { seq, deadline: Infinity });
    const batches: MetricsWrite[][] = [
      [w(1, T0, 1), w(1, T0, 2), w(2, T0, 3)],
      [w(1, T0, 4), w(1, T0 + 1, 5)],
      // Older than the node's newest (history only), on a time already taken.
      [w(1, T0 + 5000, 6), w(1, T0 + 1, 7)],
    ];
    for (const b of batches) expect(committer.commitBatch(b)).toEqual(engine.commitBatch(b));
    const index = new OpenLogIndex(`${path}-open-0`);
    const fromLog = historySource(db, { logs: () => [index] });
    const fromRaw = historySource(rawDb);
    const times = [T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5000];
    expect(fromRaw.times(1, 0, T0 + 10_000)).toEqual(times);
    for (const node of [1, 2]) {
      expect(fromLog.rows(node, 0, T0 + 10_000)).toEqual(fromRaw.rows(node, 0, T0 + 10_000));
    }
    log.close();
    index.close();
  });

  it('never stores a sample before the log’s seal boundary', async () => {
    const path = await database();
    const db = openSqliteConnection(path);
    const log = OpenLogFile.open(`${path}-open-0`, { shard: 0, from: T0 + 100 });
    const committer = new OpenLogCommitter(db, log, () => T0);
    committer.commitBatch([metricsWrite(1, T0, { deadline: Infinity })]);
    committer.commitBatch([metricsWrite(1, T0 + 1, { deadline: Infinity })]);
    const index = new OpenLogIndex(`${path}-open-0`);
    index.refresh();
    expect(index.times(1, 0, Infinity)).toEqual([T0 + 100, T0 + 101]);
    log.close();
    index.close();
  });
});
