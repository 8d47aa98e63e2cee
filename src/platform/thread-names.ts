import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { readlink } from 'node:fs/promises';

/**
 * Kernel names for Dash's threads (Linux only; elsewhere nothing happens). Node leaves every
 * thread named `node`, so `top -H`, `/proc/<pid>/task/<tid>/stat` and the ingest benchmark's
 * per-thread CPU and disk lines could not tell the ingest threads from the libuv pool or V8's
 * helpers. A process may rename its own threads through /proc (at most 15 bytes).
 */

const COMM_BYTES = 15;

function writeComm(path: string, name: string): boolean {
  try {
    writeFileSync(path, name.slice(0, COMM_BYTES));
    return true;
  } catch {
    // Not Linux, or /proc not mounted: names are a diagnosis aid only.
    return false;
  }
}

/** Names the calling thread (a worker thread names itself at its start). */
export function nameThisThread(name: string): boolean {
  return writeComm('/proc/thread-self/comm', name);
}

function comm(pid: number, tid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Threads of the libuv pool: an async readlink of /proc/thread-self runs on one of them. */
async function libuvPoolThreads(size: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let round = 0; round < 8 && seen.size < size; round++) {
    const links = await Promise.all(
      Array.from({ length: size * 4 }, () => readlink('/proc/thread-self')),
    );
    for (const l of links) seen.add(Number(l.slice(l.lastIndexOf('/') + 1)));
  }
  return seen;
}

/**
 * Names the threads Node itself started, from the main thread before any worker starts: the
 * libuv pool (`libuv-pool`, found by where its requests run) and, older than it, V8's platform
 * workers (concurrent GC and compilation) with Node's few helper threads (`v8-platform`).
 * Returns how many were named; the main thread keeps the process's name.
 */
export async function nameNodeThreads(
  poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4,
): Promise<number> {
  const pid = process.pid;
  let tids: number[];
  let pool: Set<number>;
  try {
    // The pool starts its threads on first use: list the threads only after finding it.
    pool = await libuvPoolThreads(poolSize);
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return 0;
  }
  // libuv starts all of its pool threads together on first use, after V8's, and no worker has
  // started yet: the pool is the newest `poolSize` threads. Discovery alone may miss one of
  // them (a request can land on any thread), so it only confirms which ones they are.
  const unnamed = tids.filter((tid) => tid !== pid && comm(pid, tid) === 'node');
  const newest = unnamed.sort((a, b) => a - b).slice(-poolSize);
  if ([...pool].every((tid) => newest.includes(tid))) pool = new Set(newest);
  const firstPool = Math.min(...pool);
  let named = 0;
  for (const tid of unnamed) {
    const name = pool.has(tid) ? 'libuv-pool' : tid < firstPool ? 'v8-platform' : undefined;
    if (name && writeComm(`/proc/${pid}/task/${tid}/comm`, name)) named++;
  }
  return named;
}
