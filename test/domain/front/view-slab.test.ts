import { describe, expect, it } from 'vitest';
import { ViewSlab } from '../../../src/domain/front/view-slab.js';

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

  it('reuses its buffer for views of similar size and grows for larger ones', () => {
    const s = new ViewSlab();
    s.write('{}', ['"a":"', 'x'.repeat(2000), '"']);
    const first = s.bytes().buffer;
    s.write('{}', ['"a":"', 'x'.repeat(2100), '"']);
    expect(s.bytes().buffer).toBe(first);
    s.write('{}', ['"a":"', 'x'.repeat(10_000), '"']);
    expect(s.bytes().buffer).not.toBe(first);
    expect(JSON.parse(s.text())).toEqual({ node: {}, a: 'x'.repeat(10_000) });
  });

  it('ignores a node swap before any view was written', () => {
    const s = new ViewSlab();
    s.replaceNode('{"title":"x"}');
    expect(s.text()).toBe('');
    expect(s.bytes().length).toBe(0);
  });
});
