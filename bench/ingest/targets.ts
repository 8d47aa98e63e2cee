/**
 * The targets of issue 21 for the ingest path, each judged on one run: latency, CPU and
 * throughput as ratios to the same run's bare baseline (the machine is shared, so absolute
 * figures move with its load), memory, disk and startup as absolute limits; and issue 23's:
 * the fleet sustained (every report of the open loop answered 200, at its rate, within the
 * 5 s persistence budget), by the given number of instances.
 */
/** Figures of the phases that ran (`--only`); a target whose figures are missing is not printed. */
export interface TargetFigures {
  /** Whose targets, e.g. "issue 21". */
  title?: string;
  loadAverage: string;
  /** The bare baseline's open-loop p99 at the same rate (ms). */
  baseOpenP99?: number;
  openP99?: number;
  /** The worst p99 of any one second of Dash's open loop (ms). */
  worstSecondP99?: number;
  openErrors?: number;
  /** Reports the open loop sent, and answered with 200 per second of the whole phase. */
  openSent?: number;
  openPerSecond?: number;
  /** Peak RSS while the open loop ran (the fleet reporting at its interval). */
  rssMb?: number;
  /** Peak RSS during saturation, for information. */
  satRssMb?: number;
  /** Server CPU per answered report at saturation, all threads (µs). */
  cpuUs?: number;
  baseCpuUs?: number;
  /** Bytes written to storage per report during the open loop (KiB). */
  diskKiB?: number;
  /** What `diskKiB` measured, when not the Dash process's own writes. */
  diskLabel?: string;
  satPerSecond?: number;
  baseSatPerSecond?: number;
  /** Spawn to a stored report, restarting on the run's database (s). */
  startupSeconds?: number;
  nodes: number;
  rate: number;
  /** Dash processes the load was spread over. */
  instances?: number;
}

/** The answer budget of a report (receipt to COMMIT), ms: a later answer is a 503 anyway. */
const PERSISTENCE_BUDGET_MS = 5000;

interface Row {
  target: string;
  value: string;
  ratio: string;
  limit: string;
  pass: boolean;
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function targetRows(f: TargetFigures): Row[] {
  const rows: Row[] = [];
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Infinity);
  if (
    f.openSent !== undefined &&
    f.openPerSecond !== undefined &&
    f.openErrors !== undefined &&
    f.openP99 !== undefined
  ) {
    const instances = f.instances ?? 1;
    const interval = f.nodes / f.rate;
    const kept = f.openPerSecond / f.rate;
    const sustained =
      f.openErrors === 0 && kept >= 0.95 && f.openP99 <= PERSISTENCE_BUDGET_MS && f.openSent > 0;
    rows.push({
      target:
        `${fmt(f.nodes)} nodes at ${Math.round(interval * 10) / 10} s, no errors` +
        (instances > 1 ? `, ${instances} instances` : ''),
      value: `${fmt(f.openPerSecond)}/s answered of ${fmt(f.rate)}/s, ${fmt(f.openErrors)} errors, p99 ${fmt(f.openP99)} ms`,
      ratio: `${fmt(kept, 2)}×`,
      limit: `0 errors, ≥ 0.95× the rate, p99 ≤ ${PERSISTENCE_BUDGET_MS / 1000} s`,
      pass: sustained,
    });
  }
  if (f.openP99 !== undefined && f.baseOpenP99 !== undefined && f.worstSecondP99 !== undefined) {
    const p99Ratio = ratio(f.openP99, f.baseOpenP99);
    const worstRatio = ratio(f.worstSecondP99, f.baseOpenP99);
    rows.push(
      {
        target: `open loop ${f.rate}/s p99`,
        value: `${fmt(f.openP99, 1)} ms (baseline ${fmt(f.baseOpenP99, 1)})`,
        ratio: `${fmt(p99Ratio, 2)}×`,
        limit: '≤ 2× baseline',
        pass: p99Ratio <= 2,
      },
      {
        target: 'open loop worst second p99',
        value: `${fmt(f.worstSecondP99, 1)} ms`,
        ratio: `${fmt(worstRatio, 2)}×`,
        limit: '≤ 5× baseline p99',
        pass: worstRatio <= 5,
      },
    );
  }
  if (f.openErrors !== undefined)
    rows.push({
      target: 'open loop errors',
      value: fmt(f.openErrors),
      ratio: '',
      limit: '0',
      pass: f.openErrors === 0,
    });
  if (f.rssMb !== undefined)
    rows.push({
      target: `RSS, ${f.nodes} nodes at ${f.rate}/s`,
      value:
        `${fmt(f.rssMb)} MB` + (f.satRssMb !== undefined ? ` (saturation ${fmt(f.satRssMb)})` : ''),
      ratio: '',
      limit: '≤ 250 MB',
      pass: f.rssMb <= 250,
    });
  if (f.cpuUs !== undefined && f.baseCpuUs !== undefined) {
    const cpuRatio = ratio(f.cpuUs, f.baseCpuUs);
    rows.push({
      target: 'server CPU per report',
      value: `${fmt(f.cpuUs)} µs (baseline ${fmt(f.baseCpuUs)})`,
      ratio: `${fmt(cpuRatio, 2)}×`,
      limit: '≤ 2× baseline',
      pass: cpuRatio <= 2,
    });
  }
  if (f.diskKiB !== undefined)
    rows.push({
      target: `${f.diskLabel ?? 'disk'} written per report at ${f.rate}/s`,
      value: `${fmt(f.diskKiB, 2)} KiB`,
      ratio: '',
      limit: '≤ 1.5 KiB',
      pass: f.diskKiB <= 1.5,
    });
  if (f.satPerSecond !== undefined && f.baseSatPerSecond !== undefined) {
    const satRatio = ratio(f.satPerSecond, f.baseSatPerSecond);
    rows.push({
      target: 'saturation',
      value: `${fmt(f.satPerSecond)}/s (baseline ${fmt(f.baseSatPerSecond)})`,
      ratio: `${fmt(satRatio, 2)}×`,
      limit: '≥ 0.8× baseline',
      pass: satRatio >= 0.8,
    });
  }
  if (f.startupSeconds !== undefined)
    rows.push({
      target: `startup, ${f.nodes} nodes`,
      value: `${fmt(f.startupSeconds, 2)} s`,
      ratio: '',
      limit: '< 5 s',
      pass: f.startupSeconds < 5,
    });
  return rows;
}

export function printTargets(f: TargetFigures): void {
  const rows = targetRows(f);
  const w = (k: keyof Row) => Math.max(...rows.map((r) => String(r[k]).length));
  console.log(`targets (${f.title ?? 'issue 21'}), load average ${f.loadAverage}:`);
  for (const r of rows) {
    console.log(
      `  ${r.pass ? 'PASS' : 'MISS'}  ${r.target.padEnd(w('target'))}  ${r.value.padEnd(w('value'))}  ` +
        `${r.ratio.padStart(w('ratio'))}  ${r.limit}`,
    );
  }
  const missed = rows.filter((r) => !r.pass).length;
  console.log(`  ${rows.length - missed}/${rows.length} targets met`);
}
