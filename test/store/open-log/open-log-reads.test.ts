import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeSample } from '../../../src/store/history-blocks/open-log-record.js';
import { encodeStoredDevices } from '../../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../../src/store/sqlite/history-source.js';
import { HOST_COLUMNS } from '../../../src/store/sqlite/metrics-codec.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { sealOpenLog } from '../../../src/store/sqlite/open-log-seal.js';
import { sqliteUptimeRepo } from '../../../src/store/sqlite/uptime.js';
import { tempHome } from '../../support/build-app.js';
import { seedNodes } from '../../support/seed-home.js';

const SEAL = 300_000;
const T0 = 1_764_000_000_000 - (1_764_000_000_000 % SEAL);
const END = T0 + 2.5 * SEAL;

const host = (at: number) =>
  Array.from({ length: HOST_COLUMNS.length }, (_, i) => (i === 0 ? at % 10_000 : null));

describe('history reads with an open-block log', () => {
  it('show every point exactly once before a seal, after it, and after the rotation', async () => {
    const home = tempHome();
    await seedNodes(home, 1);
    const dbPath = join(home, 'dash.db');
    const db = openSqliteConnection(dbPath);
    const log = OpenLogFile.open(`${dbPath}-open-0`, { shard: 0, from: 0 });
    const times: number[] = [];
    for (let at = T0; at < END; at += 3000) {
      times.push(at);
      log.append([
        encodeSample({
          node: 1,
          at,
          host: host(at),
          devices: encodeStoredDevices([{ kind: 2, id: 9, values: [at % 7, 1, 2, 3, 4] }]),
        }),
      ]);
    }
    log.syncNow();
    const index = new OpenLogIndex(`${dbPath}-open-0`);
    const source = historySource(db, { logs: () => [index] });
    const check = () => {
      expect(source.times(1, 0, END)).toEqual(times);
      expect(source.count(1, T0 + SEAL, T0 + 2 * SEAL)).toBe(100);
      expect(source.first(1)).toBe(T0);
      expect(source.hostSeries(1, 0, 0, END).map((p) => p.at)).toEqual(times);
      expect(source.hostSeries(1, 0, 0, END).at(-1)?.value).toBe(((END - 3000) % 10_000) / 1e4);
      expect(source.deviceSeries(1, 'io', 0, undefined, 0, END).map((p) => p.value)).toEqual(
        times.map((at) => at % 7),
      );
      expect(source.deviceRows(1, 'io', 0, END)).toHaveLength(times.length);
      expect(source.rows(1, 0, END).map((r) => r.at)).toEqual(times);
    };
    check();
    const boundary = T0 + 2 * SEAL;
    sealOpenLog(db, index, 0, boundary, SEAL);
    check();
    log.rotate(boundary, (p) => decodeRecord(p).at >= boundary);
    check();
    expect(index.size.records).toBe(times.filter((at) => at >= boundary).length);
    log.close();
    index.close();
    db.close();
  });

  it('does not read a log rotated past the sealed watermark its snapshot sees', async () => {
    const home = tempHome();
    await seedNodes(home, 1);
    const dbPath = join(home, 'dash.db');
    const db = openSqliteConnection(dbPath);
    // A log that starts at a boundary no committed seal recorded: its records before that were
    // sealed by a transaction this snapshot cannot see, so reading it would show a gap.
    const log = OpenLogFile.open(`${dbPath}-open-0`, { shard: 0, from: T0 });
    log.append([encodeSample({ node: 1, at: T0 + 5, host: host(T0), devices: new Uint8Array() })]);
    const index = new OpenLogIndex(`${dbPath}-open-0`);
    expect(() => historySource(db, { logs: () => [index] }).times(1, 0, END)).toThrow(/rotated/);
    log.close();
    index.close();
    db.close();
  });

  it('reads many nodes in one snapshot, refreshing the logs once (the receipts at start)', async () => {
    const home = tempHome();
    await seedNodes(home, 3);
    const dbPath = join(home, 'dash.db');
    const db = openSqliteConnection(dbPath);
    const log = OpenLogFile.open(`${dbPath}-open-0`, { shard: 0, from: 0 });
    const insertCurrent = db.prepare(
      `INSERT INTO node_current (node_id, received_at, reported_at, first_received_at, runtime_json)
       VALUES (?, ?, ?, ?, '{}')`,
    );
    for (const node of [1, 2, 3]) {
      insertCurrent.run(node, T0 + node, T0 + node, T0 + node);
      for (const at of [T0 + node, T0 + 3000 + node]) {
        log.append([encodeSample({ node, at, host: host(at), devices: new Uint8Array() })]);
      }
    }
    log.syncNow();
    const index = new OpenLogIndex(`${dbPath}-open-0`);
    let refreshes = 0;
    const logs = {
      logs: () => {
        refreshes++;
        return [index];
      },
    };
    const receipts = await sqliteUptimeRepo(db, logs).recentReceipts(T0);
    expect(receipts).toHaveLength(6);
    expect(receipts.filter((r) => r.nodeId === 2).map((r) => r.receivedAt)).toEqual([
      T0 + 2,
      T0 + 3002,
    ]);
    expect(refreshes).toBe(1);
    // Reads in a batch answer as they do alone.
    const source = historySource(db, logs);
    const alone = [1, 2, 3].map((n) => source.times(n, 0, END));
    refreshes = 0;
    expect(source.batch(() => [1, 2, 3].map((n) => source.times(n, 0, END)))).toEqual(alone);
    expect(refreshes).toBe(1);
    log.close();
    index.close();
    db.close();
  });
});
