/**
 * Group commit of the open-block log (ingest-worker.ts, docs/ingest-disk-writes.md): how long a
 * committed report may wait for its log sync to start so that more reports share it
 * (`ingest_commit_delay`), and how many waiting bytes start it at once.
 *
 * Every fdatasync leaves the log's last page clean, so the next append dirties it again and
 * the kernel writes its 4 KiB once more: a sync costs about 4 KiB plus its records whatever it
 * covers. At 3,000 reports/s over two threads, syncing as soon as one ends gave syncs of a few
 * reports; waiting up to 10 ms gathers ~15 per thread, ~270 B of tail page per report instead
 * of ~1 KiB, for at most 10 ms more before the answer (a node reports every few seconds).
 */
export const DEFAULT_COMMIT_DELAY_MS = 10;
/** Records waiting for a sync that make it start at once: the tail page is then a small share. */
export const COMMIT_SHARE_BYTES = 16 * 1024;
