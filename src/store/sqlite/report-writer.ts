import type {
  MetricsMaintenance,
  MetricsWrite,
  MetricsWriteOutcome,
  MetricsWriter,
} from '../ports.js';
import type { EngineRequest, EngineResponse } from './engine-runner.js';

/** How the writer reaches the engine (a runner on the same thread as the connection). */
export interface EngineTransport {
  request<R extends EngineRequest>(req: R): Promise<EngineResponse<R>>;
  close(): Promise<void>;
}

/** Upper bound of reports per transaction. */
const MAX_BATCH = 1000;

interface Pending {
  entry: MetricsWrite;
  resolve: (o: MetricsWriteOutcome) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: reports queue up while the previous transaction commits and then go to the
 * writer together in one transaction. Each caller resolves only after COMMIT (synchronous=FULL),
 * so a 200 always means durable.
 */
export class ReportWriter implements MetricsWriter, MetricsMaintenance {
  private pending: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly transport: EngineTransport,
    /** Batches committing at once; 2 lets the next batch cross to the worker during a commit. */
    private readonly maxInFlight = 2,
  ) {}

  write(entry: MetricsWrite): Promise<MetricsWriteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ entry, resolve, reject });
      this.schedule();
    });
  }

  async drain(): Promise<void> {
    if (this.pending.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  rollup(now: number) {
    return this.transport.request({ type: 'rollup', now });
  }

  retention(now: number, rawRetentionDays: number) {
    return this.transport.request({ type: 'retention', now, rawRetentionDays });
  }

  async close(): Promise<void> {
    await this.drain();
    await this.transport.close();
  }

  /** Same-tick arrivals join one batch; a batch leaves when a commit slot is free. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    if (this.pending.length === 0 || this.inFlight >= this.maxInFlight) return;
    const batch = this.pending.splice(0, MAX_BATCH);
    this.inFlight++;
    this.transport
      .request({ type: 'batch', entries: batch.map((p) => p.entry) })
      .then(
        (outcomes) => batch.forEach((p, i) => p.resolve(outcomes[i] ?? 'expired')),
        (err: unknown) => batch.forEach((p) => p.reject(err)),
      )
      .finally(() => {
        this.inFlight--;
        if (this.pending.length > 0) this.schedule();
        else if (this.inFlight === 0) for (const done of this.idle.splice(0)) done();
      });
  }
}
