import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const WEB = fileURLToPath(new URL('../../web/src', import.meta.url));

describe('imports', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importCycles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts']]);
  });

  it('src/ has no import cycle, type-only imports included', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph)).toEqual([]);
  });

  it('the web app has no import cycle', () => {
    const graph = importGraph(WEB);
    expect([...graph.values()].flat()).toContain('api/front.ts');
    expect(importCycles(graph)).toEqual([]);
  });
});
