import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const child = new URL('../support/thread-names-child.ts', import.meta.url).pathname;

describe('thread names (Linux)', () => {
  it('names the libuv pool, V8 platform threads and a worker; the main thread keeps its name', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8' }),
    ) as { named: number; names: Array<{ main: boolean; name: string }> };
    const count = (n: string) => out.names.filter((t) => t.name === n).length;
    expect(out.names.find((t) => t.main)?.name).toBe('node');
    expect(count('libuv-pool')).toBe(4);
    expect(count('v8-platform')).toBeGreaterThanOrEqual(1);
    expect(count('ingest-0')).toBe(1);
    expect(out.named).toBe(count('libuv-pool') + count('v8-platform'));
  });
});
