import { setFlagsFromString } from 'node:v8';

/**
 * How far a V8 heap may grow past what its last full collection kept before the next one:
 * 1 + this / 100. V8 otherwise picks a factor of up to 4 from how fast the program allocates
 * against how fast it collects, and on a busy (or shared) machine it picks the top of that
 * range: with 10,000 nodes the HTTP thread keeps ~65 MB live but grew to 250–430 MB between
 * full collections, each ingest thread 24 MB live but 80–130 MB. A fixed, small factor
 * bounds every isolate (the flag is process-wide, so the ingest threads too) at the cost of
 * more frequent, concurrent major collections (docs/ingest-performance.md, "RSS").
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * The same on PostgreSQL, where CPU is what runs out first: two instances, PostgreSQL and
 * the agents' traffic share the cores, and at 30 % V8's helper threads marked the HTTP
 * isolates so often that V8's helper threads took 134-208 µs of a report's ~600 µs budget
 * (two cores at 3,333 reports/s). At 100 % they took 67-111 µs and Dash's CPU per report fell
 * by 14-25 % in four of five A/B pairs, for 30-70 MB more RSS per instance (docs/postgresql.md
 * "Per-report CPU budget").
 */
export const PG_HEAP_GROWING_PERCENT = 100;

/** V8 options an operator may pass to size the heaps themselves; then Dash leaves them be. */
const OPERATOR_HEAP_FLAGS = /--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/;

/**
 * Bounds heap growth for the rest of the process's life (works at run time: V8 reads the
 * factor at each full collection). Returns false, changing nothing, when the process was
 * started with its own heap sizing flags.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
  percent: number = HEAP_GROWING_PERCENT,
): boolean {
  if (OPERATOR_HEAP_FLAGS.test([...execArgv, nodeOptions].join(' '))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
