import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeSample } from '../../../src/store/history-blocks/open-log-record.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { tempHome } from '../../support/build-app.js';

const sample = (node: number, at: number) =>
  encodeSample({ node, at, host: [at % 1000, null, 7], devices: new Uint8Array() });
const ats = (f: OpenLogFile) => f.replayed.payloads.map((p) => decodeRecord(p).at);
const keep = (boundary: number) => (p: Uint8Array) => decodeRecord(p).at >= boundary;

describe('rotating the open-block log in steps', () => {
  it('copies in small steps between appends, the last step taking only what came since', () => {
    const path = join(tempHome(), 'dash.db-open-0');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    for (let at = 0; at < 400; at++) log.append([sample(1 + (at % 3), at)]);
    log.syncNow();
    log.beginRotation(200);
    let steps = 0;
    let at = 400;
    // 1 KiB per step: several records each, one straddling the step's end now and then.
    while (!log.copyForRotation(keep(200), 1024)) {
      steps++;
      log.append([sample(1, at++)]);
    }
    expect(steps).toBeGreaterThan(3);
    log.append([sample(2, at++), sample(3, at++)]);
    log.rotate(200, keep(200));
    expect(log.from).toBe(200);
    log.close();
    const reopened = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(reopened.replayed.header.from).toBe(200);
    expect(ats(reopened)).toEqual(Array.from({ length: at - 200 }, (_, i) => 200 + i));
    reopened.close();
  });

  it('leaves the old file whole when it stops before the rename (a crash)', () => {
    const path = join(tempHome(), 'dash.db-open-0');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    for (let at = 0; at < 100; at++) log.append([sample(1, at)]);
    log.syncNow();
    log.beginRotation(50);
    log.copyForRotation(keep(50), 1024);
    log.close();
    expect(existsSync(`${path}.next`)).toBe(true);
    const reopened = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(reopened.replayed.header.from).toBe(0);
    expect(ats(reopened)).toHaveLength(100);
    // The next rotation starts its file afresh.
    reopened.rotate(50, keep(50));
    reopened.close();
    const after = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(ats(after)).toEqual(Array.from({ length: 50 }, (_, i) => 50 + i));
    after.close();
  });
});
