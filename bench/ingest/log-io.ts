/** The ingest threads' disk writes by source, from Dash's /metrics (docs/ingest-disk-writes.md). */

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * The ingest threads' disk-write counters from Dash's /metrics (dash_ingest_log_bytes_total by
 * source, dash_ingest_log_events_total by event), as "bytes:source" and "events:event" keys;
 * empty when Dash has none (PostgreSQL).
 */
export async function scrapeLogIo(port: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  const text = await res.text();
  const re = /^dash_ingest_log_(bytes|events)_total\{(?:source|event)="([a-z_]+)"\} (\S+)$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.set(`${m[1]}:${m[2]}`, Number(m[3]));
  return out;
}

/**
 * The ingest threads' disk writes per report by source over a window (docs/ingest-disk-writes.md):
 * what the log appends and the zero bytes its syncs pad it with to a page, what seals and
 * rotations dirtied (page writes measured around them), and the rest of the threads' writes:
 * SQLite writes of batches (new devices, first projections, traffic on the first thread), the
 * checkpoints their commits ran, and a log page written twice where padding was not written.
 */
export function logIoBreakdown(
  before: Map<string, number>,
  after: Map<string, number>,
  reports: number,
) {
  const d = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  const per = (bytes: number) => `${fmt(bytes / Math.max(1, reports), 0)} B`;
  const thread = d('bytes:written_thread');
  const seal = d('bytes:written_seal');
  const rotation = d('bytes:written_rotation');
  const appended = d('bytes:appended_samples') + d('bytes:appended_projections');
  const padding = d('bytes:padding');
  const syncs = d('events:syncs');
  const seals = d('events:seals');
  return [
    `ingest threads' writes per report by source (${fmt(seals)} seal${seals === 1 ? '' : 's'} in the window, each thread's counted` +
      `${seals === 0 ? ': NOT a steady state, no seal fell in it' : ''}): ${per(thread)} in all`,
    `  log appends ${per(appended)} (samples ${per(d('bytes:appended_samples'))}, projections ${per(d('bytes:appended_projections'))})`,
    `  syncs ${fmt(syncs)}, ${fmt(d('events:synced_reports') / Math.max(1, syncs), 1)} reports per sync; ` +
      `padding to pages ${per(padding)}; ` +
      `batch SQLite writes and their checkpoints (the rest) ${per(thread - appended - padding - seal - rotation)}`,
    `  seal steps ${per(seal)} (block data ${per(d('bytes:sealed_blocks'))}, ${fmt(d('events:stored_projections'))} projections ` +
      `stored in node_current, ${fmt(d('events:carried_projections'))} carried; WAL and checkpoints included)`,
    `  rotations ${per(rotation)} (log files written ${per(d('bytes:rotated'))})`,
  ].join('\n');
}
