/**
 * Self time by function of V8 CPU profiles (`.cpuprofile`, as written by `--cpu-prof`, e.g. by
 * `npm run bench:ingest -- --profile DIR`): one table per profile file, the top functions by
 * self time with their share of the thread's samples, and optionally the total time of the
 * functions matching a pattern (self time of the function and everything it called).
 *
 *   node --import tsx bench/profile-summary.ts DIR_OR_FILES… [--top 25] [--total name,name]
 *
 * With `--per N` (reports answered while profiling) it also prints µs per report.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    total: { type: 'string' },
    /** Comma-separated function names: where their self time was called from (5 frames up). */
    callers: { type: 'string' },
    /** Only samples with this function on the stack (the breakdown of its total time). */
    under: { type: 'string' },
    per: { type: 'string' },
  },
});

function files(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (f.endsWith('.cpuprofile')) out.push(join(p, f));
    } else out.push(p);
  }
  return out;
}

const label = (n: ProfileNode): string => {
  const f = n.callFrame;
  const file = f.url ? basename(f.url) : '';
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
};

/** Microseconds of self time per node id (a sample's delta is charged to its node). */
function selfTimes(p: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the next delta.
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    const id = p.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + Math.max(0, dt));
  }
  return self;
}

const top = Number(values.top);
const per = values.per ? Number(values.per) : undefined;
const totals = values.total ? values.total.split(',') : [];
const callers = values.callers ? values.callers.split(',') : [];

for (const file of files(positionals)) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = selfTimes(p);
  if (values.under) {
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const id of [...self.keys()]) {
      let found = false;
      for (let cur: number | undefined = id; cur !== undefined && !found; cur = parent.get(cur))
        found = byId.get(cur)!.callFrame.functionName === values.under;
      if (!found) self.delete(id);
    }
  }
  let all = 0;
  for (const v of self.values()) all += v;
  const byName = new Map<string, number>();
  for (const [id, us] of self) {
    const key = label(byId.get(id)!);
    byName.set(key, (byName.get(key) ?? 0) + us);
  }
  const idle = [...byName].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  const busy = all - idle;
  const perText = per ? `, ${(busy / per).toFixed(1)} µs busy per report` : '';
  console.log(
    `\n${basename(file)}: ${(all / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy${perText}`,
  );
  const rows = [...byName].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
  for (const [k, us] of rows.slice(0, top)) {
    const share = ((100 * us) / busy).toFixed(1).padStart(5);
    const perRep = per ? `${(us / per).toFixed(2).padStart(8)} µs/rep  ` : '';
    console.log(`  ${share} %  ${perRep}${k}`);
  }
  if (callers.length > 0) {
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const name of callers) {
      const stacks = new Map<string, number>();
      for (const [id, t] of self) {
        if (byId.get(id)!.callFrame.functionName !== name) continue;
        const chain: string[] = [];
        for (let cur = parent.get(id); cur !== undefined && chain.length < 5; cur = parent.get(cur))
          chain.push(label(byId.get(cur)!));
        const key = chain.join(' < ');
        stacks.set(key, (stacks.get(key) ?? 0) + t);
      }
      console.log(`  ${name} called from:`);
      for (const [k, us] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 6))
        console.log(`    ${((100 * us) / busy).toFixed(2).padStart(5)} %  ${k}`);
    }
  }
  if (totals.length > 0) {
    // Total time: self time of the node and all its descendants, each node counted once even
    // when a function recurses.
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const name of totals) {
      let us = 0;
      for (const [id, t] of self) {
        for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
          if (byId.get(cur)!.callFrame.functionName === name) {
            us += t;
            break;
          }
        }
      }
      const perRep = per ? `, ${(us / per).toFixed(2)} µs/report` : '';
      console.log(`  total ${name}: ${((100 * us) / busy).toFixed(1)} %${perRep}`);
    }
  }
}
