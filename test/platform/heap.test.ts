import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../src/platform/heap.js';

const module = new URL('../../src/platform/heap.ts', import.meta.url).href;

/**
 * A child process keeps ~40 MB live and churns through objects that live long enough to be
 * promoted (a ring of 50,000), as the HTTP thread's in-flight requests do under load; prints
 * the largest heap it reached.
 */
function peakHeapMb(bound: boolean): number {
  const code = `
    const { boundHeapGrowth } = await import(${JSON.stringify(module)});
    if (${bound}) boundHeapGrowth([], '');
    const live = Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'x'.repeat(300) + i }));
    const ring = new Array(50_000);
    let peak = 0;
    for (let r = 0; r < 1_500_000; r++) {
      ring[r % ring.length] = { r, a: new Array(8).fill(r), s: 'y' + r };
      if (r % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(JSON.stringify({ peak: peak / 1048576, live: live.length }));
  `;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(out.stderr);
  return (JSON.parse(out.stdout) as { peak: number }).peak;
}

describe('boundHeapGrowth', () => {
  it('leaves the heap to an operator who sized it', () => {
    expect(boundHeapGrowth(['--max-old-space-size=512'], '')).toBe(false);
    expect(boundHeapGrowth([], '--heap-growing-percent=50')).toBe(false);
    expect(boundHeapGrowth(['--max_old_space_size=512'], '')).toBe(false);
  });

  it('keeps a churning heap near what it holds, where V8 alone lets it grow far past', () => {
    const free = peakHeapMb(false);
    const bound = peakHeapMb(true);
    // ~40 MB live plus the ring: V8's own factor lets it reach several times that.
    expect(bound).toBeLessThan(free * 0.75);
    expect(bound).toBeLessThan(160);
  }, 60_000);
});
