import { describe, expect, it } from 'vitest';
import { ViewArena, ViewSlab } from '../../../src/domain/front/view-slab.js';

const view = (n: number, fill = 'x') => ['"a":"', fill.repeat(n), '"'];

describe('ViewSlab', () => {
  it('assembles the view JSON from the node object and the remaining members', () => {
    const s = new ViewSlab();
    expect(s.text()).toBe('');
    s.write('{"id":"1","title":"é"}', ['"a":1', ',"b":[2]']);
    expect(s.text()).toBe('{"node":{"id":"1","title":"é"},"a":1,"b":[2]}');
    expect(JSON.parse(s.bytes().toString('utf8'))).toEqual({
      node: { id: '1', title: 'é' },
      a: 1,
      b: [2],
    });
  });

  it('assembles the same view from a rest given as UTF-8 bytes', () => {
    const rest = '"a":"é€","b":[2]';
    const fromText = new ViewSlab();
    fromText.write('{"id":"1"}', [rest]);
    const fromBytes = new ViewSlab();
    fromBytes.writeBytes('{"id":"1"}', new TextEncoder().encode(rest));
    expect(fromBytes.text()).toBe(fromText.text());
    expect(Buffer.compare(fromBytes.bytes(), fromText.bytes())).toBe(0);
    // And the node swap finds the rest where write would have put it.
    fromBytes.replaceNode('{"id":"2"}');
    expect(JSON.parse(fromBytes.text())).toEqual({ node: { id: '2' }, a: 'é€', b: [2] });
  });

  it('swaps the node object keeping the rest, growing or shrinking', () => {
    const s = new ViewSlab();
    s.write('{"title":"a"}', ['"x":"', 'y'.repeat(1000), '"']);
    s.replaceNode(`{"title":"${'long'.repeat(300)}"}`);
    expect(JSON.parse(s.text())).toEqual({
      node: { title: 'long'.repeat(300) },
      x: 'y'.repeat(1000),
    });
    s.replaceNode('{"title":"b"}');
    expect(JSON.parse(s.text())).toEqual({ node: { title: 'b' }, x: 'y'.repeat(1000) });
  });

  it('rewrites its slot in place for views of similar size and moves for larger ones', () => {
    const s = new ViewSlab();
    s.write('{}', view(2000));
    const first = s.bytes().byteOffset;
    s.write('{}', view(2100));
    expect(s.bytes().byteOffset).toBe(first);
    s.write('{}', view(10_000));
    expect(s.bytes().byteOffset).not.toBe(first);
    expect(JSON.parse(s.text())).toEqual({ node: {}, a: 'x'.repeat(10_000) });
  });

  it('ignores a node swap before any view was written', () => {
    const s = new ViewSlab();
    s.replaceNode('{"title":"x"}');
    expect(s.text()).toBe('');
    expect(s.bytes().length).toBe(0);
  });
});

describe('ViewArena', () => {
  it('keeps many views in a few shared chunks', () => {
    const arena = new ViewArena();
    const slabs = Array.from({ length: 1000 }, (_, i) => {
      const s = new ViewSlab(arena);
      s.write(`{"id":${i}}`, view(4000));
      return s;
    });
    const stats = arena.stats();
    expect(stats.chunks).toBeLessThanOrEqual(5);
    expect(stats.liveBytes).toBeLessThan(1000 * 4100 * 1.2);
    expect(JSON.parse(slabs[999]!.text())).toEqual({ node: { id: 999 }, a: 'x'.repeat(4000) });
  });

  it('stays bounded while views grow, move and go away, and every view stays intact', () => {
    const arena = new ViewArena();
    const slabs = Array.from({ length: 500 }, () => new ViewSlab(arena));
    let round = 0;
    for (; round < 40; round++) {
      slabs.forEach((s, i) => s.write(`{"id":${i}}`, view(1000 + ((round * 7 + i) % 13) * 300)));
      // Every fifth view goes away and comes back.
      if (round % 5 === 4) slabs.forEach((s, i) => i % 5 === round % 5 && s.free());
    }
    const live = slabs.reduce((n, s) => n + s.bytes().length, 0);
    const stats = arena.stats();
    expect(stats.reservedBytes).toBeLessThan(3 * live + 2 * (1 << 20));
    slabs.forEach((s, i) => {
      const v = JSON.parse(s.text() || '{"node":{"id":' + i + '},"a":""}') as {
        node: { id: number };
      };
      expect(v.node.id).toBe(i);
    });
  });

  it('leaves the bytes handed out intact when their chunk is evacuated', () => {
    const arena = new ViewArena();
    const slabs = Array.from({ length: 400 }, (_, i) => {
      const s = new ViewSlab(arena);
      s.write(`{"id":${i}}`, view(4000));
      return s;
    });
    const held = slabs[1]!.bytes();
    const before = held.toString();
    // Most views of the first chunk grow out of their slots: the chunk is evacuated.
    slabs.forEach((s, i) => i % 10 !== 1 && s.write(`{"id":${i}}`, view(9000)));
    slabs.forEach((s, i) => i % 10 !== 1 && s.write(`{"id":${i}}`, view(9000, 'y')));
    expect(held.toString()).toBe(before);
    expect(JSON.parse(slabs[1]!.text())).toEqual({ node: { id: 1 }, a: 'x'.repeat(4000) });
    expect(
      slabs[1]!.bytes().byteOffset === held.byteOffset && slabs[1]!.bytes().buffer === held.buffer,
    ).toBe(false);
  });

  it('gives a large view a chunk of its own and drops it with the view', () => {
    const arena = new ViewArena();
    const s = new ViewSlab(arena);
    s.write('{}', view(600_000));
    expect(arena.stats().chunks).toBe(1);
    s.free();
    expect(arena.stats()).toEqual({ chunks: 0, reservedBytes: 0, liveBytes: 0 });
    expect(s.text()).toBe('');
  });
});
