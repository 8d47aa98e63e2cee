/**
 * Stored bytes per report of raw history for nodes reporting every 60 s, 30 s and 3 s: after
 * the seal step (5-minute blocks) and after block compaction (one block per node and hour).
 * Realistic reports (test/support/agent-payloads), 24 hours, in-memory SQLite. Prints JSON.
 * Run: node --import tsx bench/history-compaction.ts
 */
import type { MetricsWrite } from '../src/store/ports.js';
import { compactTask } from '../src/store/sqlite/block-compaction.js';
import { sealTask } from '../src/store/sqlite/history-blocks.js';
import { metricsWrite, openHistoryStore } from '../test/support/metrics-writes.js';

const T0 = Date.UTC(2026, 10, 21, 0, 0, 0);
const DAY = 86_400_000;

function drain<T>(gen: Generator<void, T>): T {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

function measure(everyMs: number) {
  const { store, engine } = openHistoryStore();
  const writes: MetricsWrite[] = [];
  for (let i = 0; i < DAY / everyMs; i++) {
    writes.push(
      metricsWrite(1, T0 + i * everyMs + ((i * 37) % 11), { seq: i, deadline: Infinity }),
    );
  }
  for (let i = 0; i < writes.length; i += 5000) engine.commitBatch(writes.slice(i, i + 5000));
  const now = T0 + DAY + 60_000;
  const size = () =>
    store.raw
      .prepare(
        'SELECT count(*) AS blocks, sum(length(data)) AS bytes, sum(count) AS points FROM metrics_blocks',
      )
      .get() as { blocks: number; bytes: number; points: number };
  drain(sealTask(store.raw, now));
  const sealed = size();
  const started = process.hrtime.bigint();
  drain(compactTask(store.raw, now));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const compacted = size();
  void store.close();
  return {
    interval_s: everyMs / 1000,
    reports: sealed.points,
    sealed: { blocks: sealed.blocks, bytes_per_report: +(sealed.bytes / sealed.points).toFixed(1) },
    compacted: {
      blocks: compacted.blocks,
      bytes_per_report: +(compacted.bytes / compacted.points).toFixed(1),
    },
    compaction_ms: Math.round(ms),
  };
}

console.log(JSON.stringify([60_000, 30_000, 3_000].map(measure), null, 2));
