import { readFileSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PROJECTION,
  SAMPLE,
  decodeRecord,
  encodeProjection,
  encodeSample,
} from '../../../src/store/history-blocks/open-log-record.js';
import {
  HEADER_BYTES,
  OpenLogFile,
  PAGE_BYTES,
  scanRecords,
} from '../../../src/store/sqlite/open-log.js';
import { tempHome } from '../../support/build-app.js';

const sample = (node: number, at: number) =>
  encodeSample({
    node,
    at,
    host: [1234, null, 0, 2 ** 40, null, 7],
    devices: Uint8Array.from([1, 3, 200, 1, 0, 0, 0]),
  });

describe('open-log records', () => {
  it('round-trips a sample with gaps and a large value', () => {
    const r = decodeRecord(sample(42, 1_764_000_000_123));
    expect(r.type).toBe(SAMPLE);
    if (r.type !== SAMPLE) return;
    expect({ ...r, devices: [...r.devices] }).toEqual({
      type: SAMPLE,
      node: 42,
      at: 1_764_000_000_123,
      host: [1234, null, 0, 2 ** 40, null, 7],
      devices: [1, 3, 200, 1, 0, 0, 0],
    });
  });

  it('round-trips a projection and keeps it smaller than its JSON', () => {
    const runtimeJson = JSON.stringify({
      cpu: Array.from({ length: 32 }, (_, i) => ({ core: i, usage: 0.25, freq: 3_400_000 })),
    });
    const p = {
      node: 7,
      at: 1_764_000_000_000,
      reportedAt: 1_763_999_999_000,
      runtimeJson,
      smartJson: null,
      thermalJson: '{"zones":[]}',
      pressureJson: null,
    };
    const bytes = encodeProjection(p);
    expect(bytes.length).toBeLessThan(runtimeJson.length / 4);
    expect(decodeRecord(bytes)).toEqual({ type: PROJECTION, ...p });
  });
});

describe('open-log file', () => {
  it('replays whole records in append order after reopening', () => {
    const path = join(tempHome(), 'dash.db-open-0');
    const log = OpenLogFile.open(path, { shard: 0, from: 1000 });
    log.append([sample(1, 2000), sample(2, 2001)]);
    log.append([sample(1, 2003)]);
    log.syncNow();
    log.close();
    const again = OpenLogFile.open(path, { shard: 0, from: 9999 });
    expect(again.replayed.header).toEqual({ shard: 0, from: 1000 });
    expect(again.replayed.dropped).toBe(0);
    expect(again.replayed.payloads.map((p) => decodeRecord(p).at)).toEqual([2000, 2001, 2003]);
    again.close();
  });

  it('drops a torn tail cut at any byte and appends after the last whole record', () => {
    const dir = tempHome();
    const whole = join(dir, 'whole');
    const log = OpenLogFile.open(whole, { shard: 1, from: 0 });
    log.append([sample(1, 10), sample(2, 11)]);
    log.append([sample(3, 12)]);
    log.syncNow();
    const full = log.size;
    log.close();
    const bytes = readFileSync(whole);
    const last = scanRecords(bytes, HEADER_BYTES).records.at(-1)!;
    const lastStart = last.offset;
    const lastEnd = last.offset + 8 + last.payload.length;
    // The sync padded the file to a page: a cut inside the padding keeps every record.
    expect(full).toBe(PAGE_BYTES);
    const cuts = Array.from({ length: full - lastStart }, (_, i) => lastStart + i).filter(
      // Every byte of the last record and of the padding's frame, then a sample of the rest.
      (cut) => cut < lastEnd + 16 || cut > full - 16 || cut % 97 === 0,
    );
    for (const cut of cuts) {
      const path = join(dir, `cut-${cut}`);
      writeFileSync(path, bytes.subarray(0, cut));
      const torn = OpenLogFile.open(path, { shard: 1, from: 0 });
      const kept = cut < lastEnd ? lastStart : lastEnd;
      expect(torn.replayed.payloads.map((p) => decodeRecord(p).node)).toEqual(
        cut < lastEnd ? [1, 2] : [1, 2, 3],
      );
      expect(torn.replayed.dropped).toBe(cut - kept);
      expect(statSync(path).size).toBe(kept);
      torn.append([sample(4, 13)]);
      torn.syncNow();
      torn.close();
      const next = OpenLogFile.open(path, { shard: 1, from: 0 });
      expect(next.replayed.payloads.map((p) => decodeRecord(p).node)).toEqual(
        cut < lastEnd ? [1, 2, 4] : [1, 2, 3, 4],
      );
      next.close();
    }
  });

  it('stops at a record whose checksum does not match', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    log.append([sample(1, 10), sample(2, 11), sample(3, 12)]);
    log.syncNow();
    log.close();
    const bytes = readFileSync(path);
    const second = scanRecords(bytes, HEADER_BYTES).records[1]!.offset;
    bytes[second + 12] = bytes[second + 12]! ^ 0xff;
    writeFileSync(path, bytes);
    const damaged = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(damaged.replayed.payloads.map((p) => decodeRecord(p).node)).toEqual([1]);
    damaged.close();
  });

  it('refuses a file that is not an open-block log', () => {
    const path = join(tempHome(), 'log');
    writeFileSync(path, 'SQLite format 3\0 and more bytes than a header');
    expect(() => OpenLogFile.open(path, { shard: 0, from: 0 })).toThrow(
      /not a Dash open-block log/,
    );
    truncateSync(path, 0);
    expect(() => OpenLogFile.open(path, { shard: 0, from: 0 })).toThrow(
      /not a Dash open-block log/,
    );
  });
});
