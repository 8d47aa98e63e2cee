import type { WriteSlot } from '../store/sqlite/report-rules.js';

/**
 * A mutex over the database's single write slot, shared by the ingest threads through a
 * SharedArrayBuffer. SQLite would serialise their transactions too, but a thread that finds the
 * slot taken sleeps in its busy handler for whole milliseconds; here it waits exactly as long as
 * the other thread's commit takes. The cell holds 0 when free, else the owner's shard + 1.
 */
export class WriteLock implements WriteSlot {
  private readonly cell: Int32Array;
  /** Milliseconds this thread has spent waiting for the slot (the ingest trace reads it). */
  waitedMs = 0;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly owner: number,
  ) {
    this.cell = new Int32Array(buffer);
  }

  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  }

  /** Blocks the calling (worker) thread until the slot is free, then takes it. */
  acquire(): void {
    let since: number | undefined;
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, 0, this.owner + 1);
      if (holder === 0) {
        if (since !== undefined) this.waitedMs += performance.now() - since;
        return;
      }
      since ??= performance.now();
      Atomics.wait(this.cell, 0, holder, 100);
    }
  }

  release(): void {
    Atomics.store(this.cell, 0, 0);
    Atomics.notify(this.cell, 0, 1);
  }

  /** Frees the slot if `shard` still holds it (its thread died mid-commit). Any thread may call. */
  static releaseFor(buffer: SharedArrayBuffer, shard: number): void {
    const cell = new Int32Array(buffer);
    if (Atomics.compareExchange(cell, 0, shard + 1, 0) === shard + 1) Atomics.notify(cell, 0, 1);
  }
}
