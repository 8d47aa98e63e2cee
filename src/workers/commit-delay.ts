/**
 * Group commit of the open-block log (ingest-worker.ts, docs/ingest-disk-writes.md): how long a
 * committed report may wait for its log sync to start so that more reports share it
 * (`ingest_commit_delay`), and how many waiting bytes start it at once.
 *
 * Each sync pads the log to a 4 KiB page (open-log.ts), so it writes its records rounded up to
 * whole pages: on average half a page more than its records, whatever it covers (before the
 * padding, the tail page written again by the next sync: a whole page). At 3,000 reports/s over
 * two threads, syncing as soon as one ends gave syncs of a few reports; waiting up to 10 ms
 * gathers ~15 per thread, so that half page is ~130 B per report instead of ~700 B, for at most
 * 10 ms more before the answer (a node reports every few seconds).
 */
export const DEFAULT_COMMIT_DELAY_MS = 10;
/** Records waiting for a sync that make it start at once: the tail page is then a small share. */
export const COMMIT_SHARE_BYTES = 16 * 1024;
