import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  PROJECTION,
  decodeRecord,
  encodeProjection,
  recordHead,
} from '../../../src/store/history-blocks/open-log-record.js';
import { projectionDictionary } from '../../../src/store/history-blocks/projection-dictionary.js';
import { ByteWriter } from '../../../src/store/sqlite/metrics-codec.js';

const runtime = {
  cpu: { usage: 0.31, l1: 1.25, l5: 1.1, l15: 0.95 },
  mounts: [{ label: '/srv/données', fsType: 'ext4', total: 4e12, used: 2e12, ratio: 0.5 }],
  uptimeText: '12 days, 3:44:05 — ☃',
};

const projection = (smart: string | null, thermal: string | null, pressure: string | null) => ({
  node: 9,
  at: 1_764_000_000_000,
  reportedAt: 1_763_999_999_500,
  runtimeJson: JSON.stringify(runtime),
  smartJson: smart,
  thermalJson: thermal,
  pressureJson: pressure,
});

describe('open-log projection records with a preset dictionary', () => {
  it('round-trips every combination of missing texts, with multi-byte characters', () => {
    const texts = ['{"status":"ok","devices":[]}', '{"sensors":["é"]}', '{"cpu":{}}', ''];
    for (let bits = 0; bits < 8; bits++) {
      const p = projection(
        bits & 1 ? texts[0]! : null,
        bits & 2 ? texts[1]! : null,
        bits & 4 ? (bits & 1 ? texts[3]! : texts[2]!) : null,
      );
      const bytes = encodeProjection(p);
      expect(recordHead(bytes)).toEqual({ type: PROJECTION, node: 9, at: p.at });
      expect(decodeRecord(bytes)).toEqual({ type: PROJECTION, ...p });
    }
  });

  it('still reads a projection written before dictionaries (tag 2, one deflated JSON array)', () => {
    const p = projection('{"status":"ok"}', null, '{"io":{}}');
    const w = new ByteWriter();
    for (const v of [2, p.node, p.at, p.reportedAt]) w.varint(v);
    const body = deflateRawSync(
      Buffer.from(JSON.stringify([p.runtimeJson, p.smartJson, p.thermalJson, p.pressureJson])),
      { level: 1 },
    );
    const old = Buffer.concat([w.finish(), body]);
    expect(recordHead(old)).toEqual({ type: PROJECTION, node: 9, at: p.at });
    expect(decodeRecord(old)).toEqual({ type: PROJECTION, ...p });
  });

  it('keeps released dictionaries byte for byte (records name the one they used)', () => {
    const d = projectionDictionary(1);
    expect([d.length, crc32(d)]).toEqual([2259, 2629635547]);
    expect(() => projectionDictionary(2)).toThrow(/unknown open-log projection dictionary 2/);
  });
});
