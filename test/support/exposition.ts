import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';

/**
 * Parses a Prometheus text exposition with the npm parser and applies the rules promtool
 * checks that the parser is lenient about: one HELP/TYPE per family, a family's samples
 * contiguous, no series twice, a trailing line feed.
 */
export function parseExposition(text: string): Map<string, ParsedFamily> {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a line feed');
  const typed = new Set<string>();
  const finished = new Set<string>();
  const series = new Set<string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const name = type[1]!;
      if (typed.has(name)) throw new Error(`TYPE of ${name} given twice`);
      typed.add(name);
      if (current) finished.add(current);
      current = name;
      continue;
    }
    if (line.startsWith('#')) continue;
    const key = line.slice(0, line.lastIndexOf(' '));
    if (series.has(key)) throw new Error(`series ${key} given twice`);
    series.add(key);
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? '';
    const family = typed.has(name)
      ? name
      : [...typed].find((f) => ['_bucket', '_sum', '_count'].some((s) => name === f + s));
    if (family === undefined) throw new Error(`sample ${name} has no TYPE`);
    if (family !== current || finished.has(family)) throw new Error(`${name} is not contiguous`);
  }
  const out = new Map<string, ParsedFamily>();
  for (const f of parsePrometheusTextFormat(text)) out.set(f.name, f);
  if (out.size !== typed.size) throw new Error(`parsed ${out.size} families of ${typed.size}`);
  return out;
}
