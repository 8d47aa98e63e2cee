import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HEADER_BYTES,
  OpenLogFile,
  PAGE_BYTES,
  RECORD_FRAME_BYTES,
  encodeHeader,
  frameRecords,
} from '../../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../../src/store/sqlite/open-log-index.js';
import { decodeRecord, encodeSample } from '../../../src/store/history-blocks/open-log-record.js';
import { tempHome } from '../../support/build-app.js';

// Version 2 logs pad every sync to a page (open-log.ts): these pin that the padding is
// written, skipped by every reader, and cut correctly after a crash.

const sample = (node: number, at: number) =>
  encodeSample({ node, at, host: [at % 1000, null, 7], devices: Uint8Array.from([0, 0, 0, 0]) });
const ats = (payloads: Uint8Array[]) => payloads.map((p) => decodeRecord(p).at);
/** A payload of exactly `n` bytes (the log itself never decodes payloads). */
const raw = (n: number, fill: number) => Buffer.alloc(n, fill);

function syncAsync(log: OpenLogFile): Promise<void> {
  return new Promise((resolve, reject) => log.sync((err) => (err ? reject(err) : resolve())));
}

describe('open-log padding', () => {
  it('pads each sync to a page with zeros, and the next append starts on the next page', async () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    log.append([sample(1, 10), sample(2, 11)]);
    const recordsEnd = log.size;
    log.syncNow();
    expect(log.size).toBe(PAGE_BYTES);
    log.append([sample(1, 12)]);
    await syncAsync(log);
    expect(log.size).toBe(2 * PAGE_BYTES);
    const second = RECORD_FRAME_BYTES + sample(1, 12).length;
    expect(log.padding).toBe(PAGE_BYTES - recordsEnd + (PAGE_BYTES - second));
    log.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(2 * PAGE_BYTES);
    expect(bytes.subarray(recordsEnd, PAGE_BYTES).every((b) => b === 0)).toBe(true);
    const again = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(ats(again.replayed.payloads)).toEqual([10, 11, 12]);
    expect(again.replayed.dropped).toBe(0);
    again.close();
  });

  it('does not pad a batch ending on a page, or within a frame of one', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    // Ends 3 bytes before the page boundary: too close for a padding frame.
    log.append([raw(PAGE_BYTES - HEADER_BYTES - RECORD_FRAME_BYTES - 3, 1)]);
    log.syncNow();
    expect(log.size).toBe(PAGE_BYTES - 3);
    // Ends exactly on the next page.
    log.append([raw(PAGE_BYTES + 3 - RECORD_FRAME_BYTES, 2)]);
    log.syncNow();
    expect(log.size).toBe(2 * PAGE_BYTES);
    log.append([raw(100, 3)]);
    log.syncNow();
    expect(log.size).toBe(3 * PAGE_BYTES);
    log.close();
    const again = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(again.replayed.payloads.map((p) => p[0])).toEqual([1, 2, 3]);
    expect(again.replayed.dropped).toBe(0);
    again.close();
  });

  it('cuts a torn record after padding back to the page boundary', () => {
    const dir = tempHome();
    const whole = join(dir, 'whole');
    const log = OpenLogFile.open(whole, { shard: 0, from: 0 });
    log.append([sample(1, 10)]);
    log.syncNow();
    log.append([sample(1, 11), sample(1, 12)]);
    log.syncNow();
    log.close();
    const bytes = readFileSync(whole);
    const first = RECORD_FRAME_BYTES + sample(1, 11).length;
    for (const cut of [PAGE_BYTES + 1, PAGE_BYTES + 7, PAGE_BYTES + first - 1]) {
      const path = join(dir, `cut-${cut}`);
      writeFileSync(path, bytes.subarray(0, cut));
      const torn = OpenLogFile.open(path, { shard: 0, from: 0 });
      expect(ats(torn.replayed.payloads)).toEqual([10]);
      expect(torn.replayed.dropped).toBe(cut - PAGE_BYTES);
      expect(statSync(path).size).toBe(PAGE_BYTES);
      torn.append([sample(2, 13)]);
      torn.syncNow();
      torn.close();
      const next = OpenLogFile.open(path, { shard: 0, from: 0 });
      expect(ats(next.replayed.payloads)).toEqual([10, 13]);
      next.close();
    }
  });

  it('stops at padding that holds a non-zero byte (damage, not padding)', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    log.append([sample(1, 10)]);
    const padAt = log.size;
    log.syncNow();
    log.append([sample(1, 11)]);
    log.syncNow();
    log.close();
    const bytes = readFileSync(path);
    bytes[PAGE_BYTES - 100] = 1;
    writeFileSync(path, bytes);
    const damaged = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(ats(damaged.replayed.payloads)).toEqual([10]);
    expect(statSync(path).size).toBe(padAt);
    damaged.close();
  });

  it('replays a version 1 log (no padding) and pads from its rotation on', () => {
    const path = join(tempHome(), 'log');
    const header = encodeHeader({ shard: 3, from: 5 });
    header.writeUInt32LE(1, 4);
    writeFileSync(path, Buffer.concat([header, frameRecords([sample(1, 10), sample(2, 11)])]));
    const old = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(old.replayed.header).toEqual({ shard: 3, from: 5 });
    expect(ats(old.replayed.payloads)).toEqual([10, 11]);
    // Appends to the old file are not padded: a version 1 reader's rules still hold in it.
    old.append([sample(1, 12)]);
    old.syncNow();
    const unpadded = old.size;
    expect(unpadded % PAGE_BYTES).not.toBe(0);
    const index = new OpenLogIndex(path);
    index.refresh();
    expect(index.times(1, 0, 100)).toEqual([10, 12]);
    old.rotate(11, (p) => decodeRecord(p).at >= 11);
    expect(old.size).toBe(PAGE_BYTES);
    old.append([sample(2, 13)]);
    old.syncNow();
    expect(old.size).toBe(2 * PAGE_BYTES);
    old.close();
    index.refresh();
    expect(index.times(1, 0, 100)).toEqual([12]);
    expect(index.times(2, 0, 100)).toEqual([11, 13]);
    index.close();
    const rotated = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(readFileSync(path).readUInt32LE(4)).toBe(2);
    expect(ats(rotated.replayed.payloads)).toEqual([11, 12, 13]);
    rotated.close();
  });

  it('indexes and copies for a rotation across padding in steps smaller than a page', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    for (let at = 0; at < 60; at += 3) {
      log.append([sample(1, at), sample(2, at + 1), sample(3, at + 2)]);
      log.syncNow();
    }
    expect(log.size).toBe(20 * PAGE_BYTES);
    const index = new OpenLogIndex(path);
    let steps = 0;
    while (!index.refreshStep(64)) steps++;
    expect(steps).toBeGreaterThan(20);
    expect(index.size.records).toBe(60);
    expect(index.size.bytes).toBe(log.size);
    expect(index.samples(2, 0, 100).map((s) => s.at)).toEqual(
      Array.from({ length: 20 }, (_, i) => 3 * i + 1),
    );
    log.beginRotation(30);
    while (!log.copyForRotation((p) => decodeRecord(p).at >= 30, 64));
    log.rotate(30, (p) => decodeRecord(p).at >= 30);
    log.close();
    const rotated = OpenLogFile.open(path, { shard: 0, from: 0 });
    expect(ats(rotated.replayed.payloads)).toEqual(Array.from({ length: 30 }, (_, i) => 30 + i));
    rotated.close();
    index.close();
  });

  it('an index waits at padding that is only partly written, then reads past it', () => {
    const path = join(tempHome(), 'log');
    const log = OpenLogFile.open(path, { shard: 0, from: 0 });
    log.append([sample(1, 10)]);
    const end = log.size;
    log.close();
    // As a reader may find it while the writer's padding write is under way.
    appendFileSync(path, Buffer.alloc(100));
    const index = new OpenLogIndex(path);
    index.refresh();
    expect(index.size).toEqual({ records: 1, bytes: end });
    appendFileSync(path, Buffer.alloc(PAGE_BYTES - end - 100));
    appendFileSync(path, frameRecords([sample(1, 11)]));
    index.refresh();
    expect(index.times(1, 0, 100)).toEqual([10, 11]);
    index.close();
  });
});
