import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeRecord,
  encodeProjection,
  encodeSample,
} from '../../../src/store/history-blocks/open-log-record.js';
import { encodeStoredDevices } from '../../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../../src/store/sqlite/history-source.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { sealOpenLog, sealedWatermark } from '../../../src/store/sqlite/open-log-seal.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { watermarks } from '../../../src/store/sqlite/metrics-jobs-state.js';
import { tempHome } from '../../support/build-app.js';
import { seedNodes } from '../../support/seed-home.js';

const SEAL = 300_000;
const T0 = 1_764_000_000_000 - (1_764_000_000_000 % SEAL);

function host(at: number): Array<number | null> {
  const h: Array<number | null> = new Array<number | null>(29).fill(null);
  h[0] = at % 10_000;
  h[5] = 1_000_000 + (at % 977);
  return h;
}
const devices = (at: number) =>
  encodeStoredDevices([{ kind: 1, id: 1, values: [at % 50, 2, 3, 4] }]);

describe('sealing the open-block log', () => {
  it('writes closed windows as blocks, checkpoints projections, and keeps the open rest', async () => {
    const home = tempHome();
    await seedNodes(home, 2);
    const dbPath = join(home, 'dash.db');
    const db = openSqliteConnection(dbPath, 'ingest');
    const logPath = `${dbPath}-open-0`;
    const log = OpenLogFile.open(logPath, { shard: 0, from: 0 });
    // Node 1 and 2 report every 3 s across three windows; node 1 has two projections.
    const times: number[] = [];
    for (let at = T0; at < T0 + 2.5 * SEAL; at += 3000) times.push(at);
    for (const at of times) {
      log.append([
        encodeSample({ node: 1, at, host: host(at), devices: devices(at) }),
        encodeSample({ node: 2, at: at + 1, host: host(at + 1), devices: devices(at + 1) }),
      ]);
    }
    const projection = (at: number) =>
      encodeProjection({
        node: 1,
        at,
        reportedAt: at,
        runtimeJson: `{"at":${at}}`,
        smartJson: null,
        thermalJson: null,
        pressureJson: null,
      });
    log.append([projection(T0 + 1000), projection(T0 + SEAL + 1000)]);
    log.syncNow();

    const boundary = T0 + 2 * SEAL;
    const index = new OpenLogIndex(logPath);
    const r = sealOpenLog(db, index, 0, boundary, SEAL);
    const closed = times.filter((at) => at < boundary);
    expect(r.points).toBe(closed.length * 2);
    expect(r.blocks).toBe(4);
    expect(r.projections).toBe(1);
    expect(watermarks(db).get(sealedWatermark(0))).toBe(boundary);

    const source = historySource(db);
    const rows = source.rows(1, 0, boundary);
    expect(rows.map((x) => x.at)).toEqual(closed);
    expect(rows.map((x) => x.host)).toEqual(closed.map(host));
    expect(rows.map((x) => x.devices[0]?.values[0])).toEqual(closed.map((at) => at % 50));
    expect(
      db.prepare('SELECT runtime_json FROM node_current WHERE node_id = 1').pluck().get(),
    ).toBe(`{"at":${T0 + SEAL + 1000}}`);

    // Sealing the same log again (a crash before the rotation) adds nothing.
    expect(sealOpenLog(db, index, 0, boundary, SEAL).points).toBe(0);

    log.rotate(boundary, (p) => decodeRecord(p).at >= boundary);
    log.close();
    const reopened = OpenLogFile.open(logPath, { shard: 0, from: 0 });
    expect(reopened.replayed.header.from).toBe(boundary);
    const left = reopened.replayed.payloads.map((p) => decodeRecord(p).at);
    expect(left.length).toBe(times.filter((at) => at >= boundary).length * 2);
    expect(Math.min(...left)).toBeGreaterThanOrEqual(boundary);
    reopened.close();
    index.close();
    db.close();
  });
});
