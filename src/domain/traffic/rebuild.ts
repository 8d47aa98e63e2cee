import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import { rfc3339 } from '../../platform/time-format.js';
import type { NodesRepo, TrafficFactRow, TrafficRepo } from '../../store/ports.js';
import type { RebuildState } from '../../protocol/traffic.js';
import type { TrafficSettingsService } from '../settings/traffic-settings.js';
import { BUCKET_MS, factsForWindow, floorBucket } from './facts.js';

/** Spec §8: a rebuild rewrites 6 hours of 5-minute facts per chunk. */
export const REBUILD_CHUNK_MS = 6 * 3_600_000;
/** A chunk taking longer than this fails the task (reference §5.11). */
export const REBUILD_CHUNK_TIMEOUT_MS = 30_000;

export type RebuildFailure =
  'traffic_rebuild_requires_billing' | 'traffic_rebuild_timeout' | 'traffic_rebuild_failed';

const FAILURE_TEXT: Record<RebuildFailure, string> = {
  traffic_rebuild_requires_billing: 'usage mode was switched to Lite; the rebuild stopped',
  traffic_rebuild_timeout: 'a 6-hour chunk took longer than 30 seconds',
  traffic_rebuild_failed: 'the rebuild failed; see the server log',
};

export type { RebuildState };

/**
 * Rewrites one node's 5-minute facts from its stored counters, 6 hours at a time, dropping
 * the monthly snapshots each chunk overlaps. One task at a time in the process; switching to
 * Lite lets the current chunk finish, then the task fails with a stable code.
 */
export class TrafficRebuild {
  private state: RebuildState = {
    server_id: 0,
    status: 'idle',
    running: false,
    chunks_done: 0,
    chunks_total: 0,
  };
  private task: Promise<void> | undefined;
  private available = true;

  constructor(
    private readonly d: {
      nodes: NodesRepo;
      traffic: TrafficRepo;
      settings: TrafficSettingsService;
      clock: Clock;
      retentionMs: number;
      onError: (err: unknown) => void;
      /** Runs a chunk apart from live collection (the collector's turn). */
      exclusive: <T>(work: () => Promise<T>) => Promise<T>;
    },
  ) {}

  current(): RebuildState {
    return { ...this.state };
  }

  /** Off while the service shuts down (503 traffic_rebuild_unavailable). */
  setAvailable(available: boolean): void {
    this.available = available;
  }

  /** Resolves when the running task (if any) has ended. */
  async settled(): Promise<void> {
    await this.task;
  }

  async start(nodeId: number): Promise<RebuildState> {
    const node = await this.d.nodes.get(nodeId);
    if (!node) throw new AppError('not_found');
    if ((await this.d.settings.get()).usage_mode !== 'billing') {
      throw new AppError('traffic_rebuild_requires_billing');
    }
    if (this.state.running) throw new AppError('traffic_rebuild_running');
    if (!this.available) throw new AppError('traffic_rebuild_unavailable');
    const now = this.d.clock.now();
    this.state = {
      server_id: nodeId,
      status: 'running',
      running: true,
      started_at: rfc3339(now),
      chunks_done: 0,
      chunks_total: 0,
    };
    this.task = this.run(nodeId, now);
    return this.current();
  }

  private finish(status: 'completed' | 'failed', code?: RebuildFailure): void {
    const { server_id, started_at, chunks_done, chunks_total, rebuilt_until } = this.state;
    this.state = {
      server_id,
      status,
      running: false,
      chunks_done,
      chunks_total,
      finished_at: rfc3339(this.d.clock.now()),
    };
    if (started_at) this.state.started_at = started_at;
    if (rebuilt_until) this.state.rebuilt_until = rebuilt_until;
    if (code) {
      this.state.code = code;
      this.state.error = FAILURE_TEXT[code];
    }
  }

  private async run(nodeId: number, now: number): Promise<void> {
    try {
      const range = await this.d.traffic.counterRange(nodeId);
      if (!range) return this.finish('completed');
      const from = floorBucket(Math.max(range.first, now - this.d.retentionMs));
      const to = floorBucket(range.last) + BUCKET_MS;
      this.state.chunks_total = Math.ceil((to - from) / REBUILD_CHUNK_MS);
      for (let a = from; a < to; a += REBUILD_CHUNK_MS) {
        const b = Math.min(a + REBUILD_CHUNK_MS, to);
        const t0 = this.d.clock.now();
        await this.d.exclusive(async () => {
          const around = await this.d.traffic.countersAround(nodeId, a, b);
          const rows: Array<TrafficFactRow & { iface: string }> = [];
          for (const [iface, samples] of around) {
            for (const f of factsForWindow(samples, a, b)) rows.push({ ...f, iface });
          }
          await this.d.traffic.replaceFacts(nodeId, a, b, rows);
        });
        this.state.chunks_done++;
        this.state.rebuilt_until = rfc3339(b);
        if (this.d.clock.now() - t0 > REBUILD_CHUNK_TIMEOUT_MS) {
          return this.finish('failed', 'traffic_rebuild_timeout');
        }
        if ((await this.d.settings.get()).usage_mode !== 'billing') {
          return this.finish('failed', 'traffic_rebuild_requires_billing');
        }
        // Let requests and ingest run between chunks.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.finish('completed');
    } catch (err) {
      this.d.onError(err);
      this.finish('failed', 'traffic_rebuild_failed');
    }
  }
}
