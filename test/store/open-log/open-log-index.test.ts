import { randomBytes } from 'node:crypto';
import { appendFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeProjection,
  encodeSample,
} from '../../../src/store/history-blocks/open-log-record.js';
import {
  HEADER_BYTES,
  OpenLogFile,
  RECORD_FRAME_BYTES,
  frameRecords,
} from '../../../src/store/sqlite/open-log.js';
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

  it('refreshes in steps of at most the bytes asked for, ending where refresh ends', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    const records = Array.from({ length: 200 }, (_, i) => sample(i % 7, 100 + i));
    // A record longer than a step is still indexed, whole, in a step of its own.
    const long = encodeProjection({
      node: 3,
      at: 400,
      reportedAt: 395,
      runtimeJson: JSON.stringify({ pad: randomBytes(500).toString('hex') }),
      smartJson: null,
      thermalJson: null,
      pressureJson: null,
    });
    log.append([...records.slice(0, 100), long, ...records.slice(100)]);
    const whole = new OpenLogIndex(path);
    whole.refresh();
    const stepped = new OpenLogIndex(path);
    const step = 256;
    expect(long.length).toBeGreaterThan(step);
    let steps = 0;
    let longStep = false;
    for (let before = HEADER_BYTES, done = false; !done; steps++) {
      done = stepped.refreshStep(step);
      const read = stepped.size.bytes - before;
      const oneRecord = read === long.length + RECORD_FRAME_BYTES;
      expect(read <= step || oneRecord).toBe(true);
      longStep ||= oneRecord;
      before = stepped.size.bytes;
    }
    expect(longStep).toBe(true);
    expect(steps).toBeGreaterThan(log.size / step - 1);
    expect(stepped.size).toEqual(whole.size);
    expect(stepped.nodeIds()).toEqual(whole.nodeIds());
    for (const node of whole.nodeIds()) {
      expect(stepped.times(node, 0, 1000)).toEqual(whole.times(node, 0, 1000));
    }
    expect(stepped.projection(3)).toEqual(whole.projection(3));
    // Caught up: the next step reads nothing, until the writer appends.
    expect(stepped.refreshStep(step)).toBe(true);
    log.append([sample(1, 900)]);
    expect(stepped.refreshStep(step)).toBe(true);
    expect(stepped.times(1, 900, 901)).toEqual([900]);
    // A record still being written: caught up as far as whole records go.
    appendFileSync(path, frameRecords([sample(2, 950)]).subarray(0, 10));
    expect(stepped.refreshStep(step)).toBe(true);
    expect(stepped.times(2, 900, 1000)).toEqual([]);
    for (const i of [whole, stepped]) i.close();
    log.close();
  });
});
