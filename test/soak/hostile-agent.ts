/**
 * Hostile-agent soak (issue 25): one node sends maximal reports back to back (a body just under
 * the 1 MiB limit, every interface list entry under a new name each time) while 20 ordinary
 * nodes report twice a second. Prints the ordinary reports' latency during the attack against
 * a quiet period (as a ratio), what the hostile node got, and ordinary reports acknowledged
 * versus found in the database afterwards. Run: npm run soak:hostile-agent
 * (SOAK_SECONDS, default 60, is the attack; the quiet period is a quarter of it, at least 10 s).
 * The node's device limit (node_max_devices) turns the hostile reports into 422 once it fills.
 */
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { agentReport } from '../support/agent-payloads.js';
import { tempHome } from '../support/build-app.js';
import { startDash } from '../support/dash-process.js';
import { percentile } from '../support/hostile-clients.js';
import { seedNodes } from '../support/seed-home.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const ORDINARY = 20;
const LIMIT = 1024 * 1024;

const home = tempHome();
const secrets = await seedNodes(home, ORDINARY + 1);
const dash = await startDash(home);
const hostileSecret = secrets[ORDINARY]!;

let marker = 9_000_000;
const acked: Array<{ node: number; marker: number }> = [];
let phase: 'quiet' | 'attack' | 'done' = 'quiet';
const lat: Record<'quiet' | 'attack', number[]> = { quiet: [], attack: [] };
let ordinaryFailures = 0;

async function ordinary(i: number) {
  while (phase !== 'done') {
    const report = agentReport({ seq: marker });
    const mine = ++marker;
    report.metrics.memory.used = mine;
    const at = phase;
    const start = performance.now();
    try {
      const res = await fetch(`${dash.base}/api/node/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-node-secret': secrets[i]! },
        body: JSON.stringify(report),
      });
      await res.arrayBuffer();
      if (res.status === 200) {
        acked.push({ node: i + 1, marker: mine });
        if (at === 'quiet' || at === 'attack') lat[at].push(performance.now() - start);
      } else ordinaryFailures++;
    } catch {
      ordinaryFailures++;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

let round = 0;
/** A report just under the body limit, every interface under a name never used before. */
function maximal(): string {
  const r = agentReport({ seq: ++round });
  const base = r.metrics.network[0]!;
  const list = [] as (typeof base)[];
  r.metrics.network = list;
  const one = JSON.stringify({ ...base, name: `r${round}-if00000` }).length + 1;
  const room = LIMIT - JSON.stringify(r).length - 64;
  for (let i = 0; i < Math.floor(room / one); i++)
    list.push({ ...base, name: `r${round}-if${String(i).padStart(5, '0')}` });
  return JSON.stringify(r);
}

const hostile = { sent: 0, statuses: {} as Record<string, number> };
async function attacker() {
  while (phase === 'attack') {
    const body = maximal();
    try {
      const res = await fetch(`${dash.base}/api/node/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-node-secret': hostileSecret },
        body,
      });
      await res.arrayBuffer();
      hostile.statuses[res.status] = (hostile.statuses[res.status] ?? 0) + 1;
    } catch {
      hostile.statuses.error = (hostile.statuses.error ?? 0) + 1;
    }
    hostile.sent++;
  }
}

try {
  // One report per node first, so the quiet figures do not include cold starts.
  for (const secret of secrets.slice(0, ORDINARY)) {
    const res = await fetch(`${dash.base}/api/node/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-node-secret': secret },
      body: JSON.stringify(agentReport()),
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
  }
  const workers = Array.from({ length: ORDINARY }, (_, i) => ordinary(i));
  await new Promise((r) => setTimeout(r, Math.max(10, SECONDS / 4) * 1000));
  phase = 'attack';
  const attackers = [attacker(), attacker()];
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  phase = 'done';
  await Promise.all([...workers, ...attackers]);
} finally {
  await dash.kill('SIGKILL');
}

const store = openSqliteStore(join(home, 'dash.db'), Date.now());
const stored = new Set(
  (
    store.raw.prepare('SELECT node_id, mem_used FROM metrics_raw').all() as Array<{
      node_id: number;
      mem_used: number;
    }>
  ).map((r) => `${r.node_id}:${r.mem_used}`),
);
await store.close();
const lost = acked.filter((a) => !stored.has(`${a.node}:${a.marker}`)).length;
const ratio = (p: number) => percentile(lat.attack, p) / percentile(lat.quiet, p);
console.log(
  `hostile agent soak: ${SECONDS} s attack; hostile node sent ${hostile.sent} reports of ~1 MiB, ` +
    `answers ${JSON.stringify(hostile.statuses)}`,
);
console.log(
  `ordinary reports: quiet p50 ${percentile(lat.quiet, 50).toFixed(1)} ms p99 ` +
    `${percentile(lat.quiet, 99).toFixed(1)} ms; under attack p50 ${percentile(lat.attack, 50).toFixed(1)} ms ` +
    `p99 ${percentile(lat.attack, 99).toFixed(1)} ms; ratio p50 ${ratio(50).toFixed(2)} p99 ${ratio(99).toFixed(2)}; ` +
    `acknowledged ${acked.length}, found ${acked.length - lost}, lost ${lost}, refused or failed ${ordinaryFailures}`,
);
process.exitCode = lost === 0 ? 0 : 1;
