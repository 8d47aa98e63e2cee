import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, decodeUtf8 } from '../../src/protocol/strict-json.js';

/** The decoder decodeUtf8 replaced: a fatal TextDecoder that keeps a byte order mark. */
const reference = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function referenceDecode(bytes: Uint8Array): string | null {
  try {
    return reference.decode(bytes);
  } catch {
    return null;
  }
}

function decode(bytes: Uint8Array): string | null {
  try {
    return decodeUtf8(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(JsonSyntaxError);
    expect((err as Error).message).toBe('body is not valid UTF-8');
    return null;
  }
}

/** Byte sequences at the edges of UTF-8 validity. */
const EDGES: number[][] = [
  [],
  [0xef, 0xbb, 0xbf, 0x7b, 0x7d], // BOM + {}
  [0x7f],
  [0x80], // lone continuation byte
  [0xc0, 0x80], // overlong NUL
  [0xc1, 0xbf], // overlong
  [0xc2, 0x80], // U+0080
  [0xdf, 0xbf],
  [0xe0, 0x80, 0x80], // overlong 3-byte
  [0xe0, 0xa0, 0x80], // U+0800
  [0xed, 0x9f, 0xbf], // U+D7FF
  [0xed, 0xa0, 0x80], // UTF-8 encoded surrogate U+D800
  [0xed, 0xbf, 0xbf], // U+DFFF
  [0xee, 0x80, 0x80], // U+E000
  [0xef, 0xbf, 0xbf], // U+FFFF
  [0xf0, 0x80, 0x80, 0x80], // overlong 4-byte
  [0xf0, 0x90, 0x80, 0x80], // U+10000
  [0xf4, 0x8f, 0xbf, 0xbf], // U+10FFFF
  [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
  [0xf5, 0x80, 0x80, 0x80],
  [0xff],
  [0xe2, 0x82], // truncated
  [0x22, 0xe2, 0x82, 0xac, 0x22], // "€"
  [0x00, 0x41],
];

describe('decodeUtf8 (isAscii / isUtf8 / Buffer decoding) against a fatal TextDecoder', () => {
  it('gives the same text, or the same refusal, on edge-case byte sequences', () => {
    for (const edge of EDGES) {
      const bytes = Uint8Array.from(edge);
      expect(decode(bytes), edge.join(',')).toBe(referenceDecode(bytes));
      // Also inside ASCII context, and as a Buffer slice of a larger allocation.
      const framed = Buffer.concat([Buffer.from('{"a":"'), bytes, Buffer.from('"}')]);
      expect(decode(framed)).toBe(referenceDecode(framed));
      const big = Buffer.alloc(framed.length + 16, 0x20);
      framed.copy(big, 8);
      const slice = big.subarray(8, 8 + framed.length);
      expect(decode(slice)).toBe(referenceDecode(slice));
    }
  });

  it('keeps a byte order mark in the text (it is not JSON, so the parse refuses it)', () => {
    const text = decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x31]));
    expect(text).toBe('\ufeff1');
  });

  it('agrees on random bytes, random strings and plain Uint8Arrays', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(decode(bytes)).toBe(referenceDecode(bytes));
      }),
      { numRuns: 1500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        const bytes = new Uint8Array(Buffer.from(s, 'utf8'));
        expect(decode(bytes)).toBe(referenceDecode(bytes));
        expect(decode(bytes)).toBe(s);
      }),
      { numRuns: 1500 },
    );
    // Mostly valid text with one byte changed: near misses of every kind.
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 32 }),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        (s, at, byte) => {
          const bytes = Buffer.from(s, 'utf8');
          bytes[at % bytes.length] = byte;
          expect(decode(bytes)).toBe(referenceDecode(bytes));
        },
      ),
      { numRuns: 1500 },
    );
  });
});
