import type {
  BatchCommitter,
  MetricsWrite,
  MetricsWriteOutcome,
  RetentionRunResult,
  RollupRunResult,
  TrafficBatch,
  TrafficRepo,
} from '../ports.js';
import type BetterSqlite3 from 'better-sqlite3';
import type { StepPacer } from '../../platform/step-pacer.js';
import type { DeviceRegistry } from './device-registry.js';
import type { OpenLogs } from './history-source.js';
import type { WriteSlot } from './report-rules.js';
import { retentionTask } from './retention-task.js';
import { rollupTask } from './rollup-task.js';
import { sqliteTrafficRepo } from './traffic.js';

/** What the writer side understands; plain data, so it can cross a worker boundary. */
export type EngineRequest =
  | { type: 'rollup'; now: number; sealMs?: number }
  | { type: 'retention'; now: number; rawRetentionDays: number; maxBytes?: number }
  | { type: 'traffic'; batch: TrafficBatch };

export type EngineResponse<R extends EngineRequest> = R extends { type: 'rollup' }
  ? RollupRunResult
  : R extends { type: 'traffic' }
    ? TrafficStepResult
    : RetentionRunResult;

/** A stored traffic chunk: how long its transaction held the thread (undefined: not timed). */
export type TrafficStepResult = number | undefined;

/** The writer a runner serves: MetricsEngine (rows) or OpenLogCommitter (the open-block log). */
export interface MetricsWriter extends BatchCommitter {
  readonly db: BetterSqlite3.Database;
  readonly devices: DeviceRegistry;
  readonly slot: WriteSlot;
}

interface Waiter<T> {
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

/**
 * Runs engine work on the writer connection: ingest batches commit at once, when they arrive;
 * maintenance tasks advance one small step per event-loop turn in between, so a retention or
 * rollup run never holds ingest back for more than one step.
 */
export class EngineRunner implements BatchCommitter {
  private readonly tasks: Array<
    {
      gen: Generator<void, unknown>;
      type: EngineRequest['type'];
      pacer?: StepPacer;
    } & Waiter<unknown>
  > = [];
  private scheduled = false;
  private traffic: TrafficRepo | undefined;

  /**
   * `logs`: the open-block logs the rollups read beside blocks and raw rows. `pace`, on an
   * ingest thread: a pacer per rollup or retention run, whose gaps let the report batches in
   * (platform/step-pacer.ts), and a report of each paced run's steps when it ends.
   */
  constructor(
    private readonly engine: MetricsWriter,
    private readonly logs?: OpenLogs,
    private readonly pace?: {
      pacer: () => StepPacer;
      done?: (type: EngineRequest['type'], pacer: StepPacer) => void;
    },
  ) {}

  get maxDevicesPerNode(): number {
    return this.engine.devices.maxPerNode;
  }

  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[] {
    return this.engine.commitBatch(entries);
  }

  handle<R extends EngineRequest>(req: R): Promise<EngineResponse<R>> {
    return new Promise<EngineResponse<R>>((resolve, reject) => {
      // A traffic chunk is one step, paced by the collector that sizes the chunks (its
      // pacer is told each chunk's time, the answer); this one only times it.
      const pacer = this.pace?.pacer();
      // A rollup's steps shrink with the pacer's scale while they run long.
      const scale = (): number => pacer?.scale ?? 1;
      const gen =
        req.type === 'rollup'
          ? rollupTask(this.engine.db, req.now, req.sealMs, this.logs, scale)
          : req.type === 'traffic'
            ? this.trafficTask(req.batch)
            : retentionTask(this.engine.db, this.engine.devices, req.now, req.rawRetentionDays, {
                maxBytes: req.maxBytes,
              });
      this.tasks.push({
        gen,
        type: req.type,
        pacer,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.kick();
    });
  }

  /**
   * Stores a chunk of the traffic collector's counters, facts and accumulators in one step: the
   * collector computes them on the HTTP thread, the statements run here, off that thread.
   * The repository's apply runs synchronously; its promise carries a failure to the waiter.
   */
  // eslint-disable-next-line require-yield
  private *trafficTask(batch: TrafficBatch): Generator<void, unknown> {
    this.traffic ??= sqliteTrafficRepo(this.engine.db);
    return this.traffic.apply(batch);
  }

  private kick(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.step();
    };
    // A paced task's last step earned the batches a gap; otherwise the next turn, after the
    // batches that arrived meanwhile.
    const gap = this.next()?.pacer?.gapMs() ?? 0;
    if (gap > 0) setTimeout(run, gap);
    else setImmediate(run);
  }

  /**
   * The task to step next: a traffic chunk (one step, paced by the collector) before the next
   * step of a rollup or retention run, which are separate transactions like the report
   * batches' that run between them: a chunk behind a whole rollup held the flush, and the
   * traffic reads waiting for that chunk, for seconds.
   */
  private next() {
    return this.tasks.find((t) => t.type === 'traffic') ?? this.tasks[0];
  }

  private step(): void {
    const task = this.next();
    if (task) {
      const slot = this.engine.slot;
      slot.acquire();
      try {
        const r = task.pacer ? task.pacer.timed(() => task.gen.next()) : task.gen.next();
        if (r.done) {
          this.tasks.splice(this.tasks.indexOf(task), 1);
          if (task.type === 'traffic') {
            // The repository's promise carries a failure of the statements to the waiter.
            const ms: TrafficStepResult = task.pacer?.longestStepMs;
            Promise.resolve(r.value).then(() => task.resolve(ms), task.reject);
          } else {
            if (task.pacer) this.pace?.done?.(task.type, task.pacer);
            task.resolve(r.value);
          }
        }
      } catch (err) {
        this.tasks.splice(this.tasks.indexOf(task), 1);
        task.reject(err);
      } finally {
        slot.release();
      }
    }
    if (this.tasks.length > 0) this.kick();
  }
}
