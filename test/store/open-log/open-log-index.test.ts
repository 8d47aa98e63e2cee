import { appendFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeProjection,
  encodeSample,
} from '../../../src/store/history-blocks/open-log-record.js';
import { OpenLogFile, frameRecords } from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { tempHome } from '../../support/build-app.js';

const sample = (node: number, at: number) =>
  encodeSample({ node, at, host: [at % 1000, null], devices: Uint8Array.from([0, 0, 0, 0]) });

const projection = (node: number, at: number) =>
  encodeProjection({
    node,
    at,
    reportedAt: at - 5,
    runtimeJson: JSON.stringify({ at }),
    smartJson: null,
    thermalJson: null,
    pressureJson: null,
  });

describe('open-log index', () => {
  it('follows appends and reads one node by time range', () => {
    const path = join(tempHome(), 'dash.db-open-0');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    const index = new OpenLogIndex(path);
    index.refresh();
    expect(index.size.records).toBe(0);
    log.append([sample(1, 100), sample(2, 101), sample(1, 103)]);
    index.refresh();
    log.append([sample(1, 102), projection(1, 103), sample(2, 104)]);
    index.refresh();
    expect(index.nodeIds()).toEqual([1, 2]);
    expect(index.size.records).toBe(5);
    expect(index.samples(1, 0, 1000).map((s) => s.at)).toEqual([100, 102, 103]);
    expect(index.samples(1, 101, 103).map((s) => [s.at, s.host[0]])).toEqual([[102, 102]]);
    expect(index.times(2, 0, 1000)).toEqual([101, 104]);
    expect(index.samples(3, 0, 1000)).toEqual([]);
    expect(index.projection(1)?.runtimeJson).toBe('{"at":103}');
    expect(index.projection(2)).toBeUndefined();
    log.close();
    index.close();
  });

  it('waits for a record that is only partly written', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    log.append([sample(1, 100)]);
    log.close();
    const framed = frameRecords([sample(1, 200)]);
    appendFileSync(path, framed.subarray(0, 7));
    const index = new OpenLogIndex(path);
    index.refresh();
    expect(index.times(1, 0, 1000)).toEqual([100]);
    appendFileSync(path, framed.subarray(7));
    index.refresh();
    expect(index.times(1, 0, 1000)).toEqual([100, 200]);
    index.close();
  });

  it('starts over when the log is replaced by a rotation', () => {
    const dir = tempHome();
    const path = join(dir, 'log');
    const old = OpenLogFile.open(path, { shard: 0, from: 0 });
    old.append([sample(1, 100), sample(1, 400)]);
    old.close();
    const index = new OpenLogIndex(path);
    index.refresh();
    expect(index.times(1, 0, 1000)).toEqual([100, 400]);
    // The rotation writes what is still open into a new file, then renames it over the old.
    const next = OpenLogFile.open(join(dir, 'log.next'), { shard: 0, from: 300 });
    next.append([sample(1, 400)]);
    next.close();
    renameSync(join(dir, 'log.next'), path);
    index.refresh();
    expect(index.header).toEqual({ shard: 0, from: 300 });
    expect(index.times(1, 0, 1000)).toEqual([400]);
    index.close();
  });
});
