import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { IngestObserver } from '../domain/ingest/ingest-observer.js';
import type { JobObserver } from '../jobs/scheduler.js';
import type { OpenLogIo } from '../workers/open-log-io.js';

export interface SelfMetricsSources {
  /** Reports handed to the ingest backend and not yet batched (the backend's own queue). */
  ingestQueued: () => number;
  /** Reports sent to the database writers in batches so far, and the number of batches. */
  ingestBatches: () => { batches: number; reports: number };
  /** Bytes the database occupies (file, or pages of an in-memory one), WAL included. */
  databaseBytes: () => number | Promise<number>;
  /** The SQLite ingest threads' disk writes by source; undefined without open-block logs. */
  openLogIo?: () => OpenLogIo | undefined;
}

/**
 * Dash's own health as Prometheus metrics (prom-client, on a registry of its own so tests and
 * several apps in one process never share counters). Everything here is an O(1) counter update
 * on the paths it watches; gauges read their sources when scraped.
 */
export class SelfMetrics implements IngestObserver, JobObserver {
  readonly registry = new Registry();
  private readonly reports: Counter<'result'>;
  private readonly latency: Histogram;
  private readonly inflight: Gauge;
  private readonly unavailable: Counter;
  private readonly jobLag: Gauge<'job'>;
  private readonly jobRuns: Counter<'job' | 'result'>;
  private readonly jobLastRun: Gauge<'job'>;
  private inflightCount = 0;

  constructor(sources: SelfMetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.reports = new Counter({
      name: 'dash_ingest_reports_total',
      help: 'Metrics reports answered, by result: ok, or the error code answered.',
      labelNames: ['result'],
      registers,
    });
    this.latency = new Histogram({
      name: 'dash_ingest_duration_seconds',
      help: 'Time from the receipt of a metrics report to its answer.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    const inflight = () => this.inflightCount;
    this.inflight = new Gauge({
      name: 'dash_ingest_inflight_reports',
      help: 'Metrics reports received and not answered yet (ingest queue depth).',
      registers,
      collect() {
        this.set(inflight());
      },
    });
    new Gauge({
      name: 'dash_ingest_queued_reports',
      help: 'Reports waiting in the ingest backend for the next batch.',
      registers,
      collect() {
        this.set(sources.ingestQueued());
      },
    });
    new Counter({
      name: 'dash_ingest_batches_total',
      help: 'Batches (one transaction each) handed to the database writers.',
      registers,
      collect() {
        this.reset();
        this.inc(sources.ingestBatches().batches);
      },
    });
    new Counter({
      name: 'dash_ingest_batched_reports_total',
      help: 'Reports handed to the database writers in batches; divide by batches for batch size.',
      registers,
      collect() {
        this.reset();
        this.inc(sources.ingestBatches().reports);
      },
    });
    this.unavailable = new Counter({
      name: 'dash_http_unavailable_total',
      help: 'HTTP answers with status 503 from the router (ingest 503s: dash_ingest_reports_total).',
      registers,
    });
    this.jobLag = new Gauge({
      name: 'dash_job_lag_seconds',
      help: 'How late the last run of a background job started after it was due.',
      labelNames: ['job'],
      registers,
    });
    this.jobRuns = new Counter({
      name: 'dash_job_runs_total',
      help: 'Background job runs, by result (ok or failed).',
      labelNames: ['job', 'result'],
      registers,
    });
    this.jobLastRun = new Gauge({
      name: 'dash_job_last_run_timestamp_seconds',
      help: 'When a background job last finished, as a Unix time.',
      labelNames: ['job'],
      registers,
    });
    const io = sources.openLogIo;
    if (io) {
      new Counter({
        name: 'dash_ingest_log_bytes_total',
        help:
          'SQLite ingest threads: bytes by source. appended_samples/appended_projections: records ' +
          'appended to the open-block logs; padding: zero bytes syncs padded the logs with to a ' +
          'page boundary; sealed_blocks: block data stored by seals; ' +
          'rotated: log files written by rotations; written_seal, written_rotation, ' +
          'written_thread: page writes charged (/proc write_bytes) during seal steps, rotation ' +
          'steps, and in all of the threads.',
        labelNames: ['source'],
        registers,
        collect() {
          this.reset();
          const t = io();
          if (!t) return;
          this.inc({ source: 'appended_samples' }, t.sampleBytes);
          this.inc({ source: 'appended_projections' }, t.projectionBytes);
          this.inc({ source: 'padding' }, t.paddingBytes);
          this.inc({ source: 'sealed_blocks' }, t.blockBytes);
          this.inc({ source: 'rotated' }, t.rotationBytes);
          this.inc({ source: 'written_seal' }, t.sealWritten);
          this.inc({ source: 'written_rotation' }, t.rotationWritten);
          this.inc({ source: 'written_thread' }, t.threadWritten);
        },
      });
      new Counter({
        name: 'dash_ingest_log_events_total',
        help:
          'SQLite ingest threads: syncs (fdatasyncs of the logs), synced_reports (reports they ' +
          'acknowledged), seals, stored_projections (written to node_current by seals), ' +
          'carried_projections (kept in the next log file instead).',
        labelNames: ['event'],
        registers,
        collect() {
          this.reset();
          const t = io();
          if (!t) return;
          this.inc({ event: 'syncs' }, t.syncs);
          this.inc({ event: 'synced_reports' }, t.syncedReports);
          this.inc({ event: 'seals' }, t.seals);
          this.inc({ event: 'stored_projections' }, t.storedProjections);
          this.inc({ event: 'carried_projections' }, t.carriedProjections);
        },
      });
    }
    new Gauge({
      name: 'dash_database_size_bytes',
      help: 'Size of the database, write-ahead log included.',
      registers,
      async collect() {
        this.set(await sources.databaseBytes());
      },
    });
  }

  reportStarted(): void {
    this.inflightCount++;
  }

  reportSettled(result: string, seconds: number): void {
    this.inflightCount--;
    this.reports.inc({ result });
    this.latency.observe(seconds);
  }

  unavailableAnswered(): void {
    this.unavailable.inc();
  }

  jobFinished(job: string, dueAt: number, startedAt: number, finishedAt: number, ok: boolean) {
    this.jobLag.set({ job }, Math.max(0, startedAt - dueAt) / 1000);
    this.jobRuns.inc({ job, result: ok ? 'ok' : 'failed' });
    this.jobLastRun.set({ job }, finishedAt / 1000);
  }

  /**
   * Hook for the notification outbox (not built yet): once it exists, its composition root
   * calls this with a function counting undelivered messages.
   */
  registerOutboxBacklog(backlog: () => number): void {
    new Gauge({
      name: 'dash_outbox_backlog_messages',
      help: 'Notifications waiting in the outbox for delivery.',
      registers: [this.registry],
      collect() {
        this.set(backlog());
      },
    });
  }

  /** The exposition of every metric above, Prometheus text format 0.0.4. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
