import type {
  MetricsWrite,
  MetricsWriteOutcome,
  RetentionRunResult,
  RollupRunResult,
} from '../ports.js';
import type { MetricsEngine } from './metrics-engine.js';
import { retentionTask } from './retention-task.js';
import { rollupTask } from './rollup-task.js';

/** What the writer side understands; plain data, so it can cross a worker boundary. */
export type EngineRequest =
  | { type: 'batch'; entries: MetricsWrite[] }
  | { type: 'rollup'; now: number }
  | { type: 'retention'; now: number; rawRetentionDays: number };

export type EngineResponse<R extends EngineRequest> = R extends { type: 'batch' }
  ? MetricsWriteOutcome[]
  : R extends { type: 'rollup' }
    ? RollupRunResult
    : RetentionRunResult;

interface Waiter<T> {
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

/**
 * Runs engine work cooperatively on the writer connection: ingest batches always go first;
 * maintenance tasks advance one small step at a time in between, so a retention or rollup run
 * never holds ingest back for more than one step.
 */
export class EngineRunner {
  private readonly batches: Array<{ entries: MetricsWrite[] } & Waiter<MetricsWriteOutcome[]>> = [];
  private readonly tasks: Array<{ gen: Generator<void, unknown> } & Waiter<unknown>> = [];
  private scheduled = false;

  constructor(private readonly engine: MetricsEngine) {}

  handle<R extends EngineRequest>(req: R): Promise<EngineResponse<R>> {
    return new Promise<EngineResponse<R>>((resolve, reject) => {
      const waiter = { resolve: resolve as (v: unknown) => void, reject };
      if (req.type === 'batch') {
        this.batches.push({ entries: req.entries, ...waiter });
      } else {
        const gen =
          req.type === 'rollup'
            ? rollupTask(this.engine.db, req.now)
            : retentionTask(this.engine.db, this.engine.devices, req.now, req.rawRetentionDays);
        this.tasks.push({ gen, ...waiter });
      }
      this.kick();
    });
  }

  private kick(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.step();
    });
  }

  private step(): void {
    const batch = this.batches.shift();
    if (batch) {
      try {
        batch.resolve(this.engine.commitBatch(batch.entries));
      } catch (err) {
        batch.reject(err);
      }
    } else {
      const task = this.tasks[0];
      if (task) {
        try {
          const r = task.gen.next();
          if (r.done) {
            this.tasks.shift();
            task.resolve(r.value);
          }
        } catch (err) {
          this.tasks.shift();
          task.reject(err);
        }
      }
    }
    if (this.batches.length > 0 || this.tasks.length > 0) this.kick();
  }
}
