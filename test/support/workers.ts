import { availableParallelism } from 'node:os';

/**
 * Test files run at once (vitest.config.ts, vitest.postgres.config.ts). Vitest's default leaves
 * a core to its own process, which on the 2-core CI machine means one file at a time while the
 * other core mostly idles (the main process only transforms files at the start; much of a
 * file's time is spent waiting on PostgreSQL, sockets and child processes). So at least two.
 */
export function testWorkers(): number {
  return Math.max(2, availableParallelism() - 1);
}
