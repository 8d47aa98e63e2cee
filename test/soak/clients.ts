/**
 * Slow-clients soak (issue 25): a real Dash with reporting nodes, then 500 idle connections,
 * 200 slowloris clients, 20 clients pipelining 1,000 requests each without reading, and 2,000
 * dashboard polls kept in flight (from another process), while one well-behaved client polls
 * the dashboard. Prints its latency loaded versus quiet (as a ratio), and the server's open
 * descriptors and memory before, at the peak and after. Run: npm run soak:clients
 * (SOAK_SECONDS, SOAK_NODES, SOAK_POLLS, SOAK_IDLE, SOAK_SLOWLORIS, SOAK_PIPELINERS).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { agentReport } from '../support/agent-payloads.js';
import { tempHome } from '../support/build-app.js';
import { startDash } from '../support/dash-process.js';
import { latencies, percentile } from '../support/hostile-clients.js';
import { seedNodes } from '../support/seed-home.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const NODES = Number(process.env.SOAK_NODES ?? 100);
const SAMPLES = 200;
const PATH = '/api/front/metrics';
const LOAD = new URL('./clients-load.ts', import.meta.url).pathname;

const home = tempHome();
const secrets = await seedNodes(home, NODES);
const dash = await startDash(home, {
  DASH_METRICS_ENABLED: 'true',
  DASH_METRICS_TOKEN: 'soak-metrics-token',
});
const pid = dash.child.pid!;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
const rssMiB = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** The server's own heap in use and active handles, from its /metrics exposition. */
async function selfMetrics(): Promise<{ heapMiB: number; handles: number }> {
  const res = await fetch(`${dash.base}/metrics`, {
    headers: { authorization: 'Bearer soak-metrics-token' },
  });
  const text = await res.text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    heapMiB: value('nodejs_heap_size_used_bytes') / 1024 / 1024,
    handles: value('nodejs_active_handles_total'),
  };
}

try {
  for (const [i, secret] of secrets.entries()) {
    const res = await fetch(`${dash.base}/api/node/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-node-secret': secret },
      body: JSON.stringify(agentReport({ seq: i })),
    });
    if (res.status !== 200) throw new Error(`report: ${res.status}`);
    await res.arrayBuffer();
  }
  await latencies(dash.port, PATH, 50); // warm
  const fds0 = fds();
  const rss0 = rssMiB();
  const self0 = await selfMetrics();
  const quiet = await latencies(dash.port, PATH, SAMPLES);

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', LOAD, String(dash.port), String(SECONDS)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let childOut = '';
  child.stdout.on('data', (d: Buffer) => (childOut += d.toString()));
  const childDone = new Promise<void>((r) => child.once('exit', () => r()));
  let fdsPeak = fds0;
  let rssPeak = rss0;
  const sampler = setInterval(() => {
    fdsPeak = Math.max(fdsPeak, fds());
    rssPeak = Math.max(rssPeak, rssMiB());
  }, 250);
  // Let the crowd build up, then measure while it lasts.
  await new Promise((r) => setTimeout(r, Math.min(5, SECONDS / 3) * 1000));
  const loaded: number[] = [];
  while (loaded.length < SAMPLES) loaded.push(...(await latencies(dash.port, PATH, 10)));
  await childDone;
  clearInterval(sampler);

  let fdsAfter = fds();
  for (let i = 0; i < 300 && fdsAfter > fds0 + 5; i++) {
    await new Promise((r) => setTimeout(r, 100));
    fdsAfter = fds();
  }
  await new Promise((r) => setTimeout(r, 2000));
  const rssAfter = rssMiB();
  const selfAfter = await selfMetrics();
  const ratio = (p: number) => percentile(loaded, p) / percentile(quiet, p);
  const load = JSON.parse(childOut.trim() || '{}') as { polls?: { ok: number; failed: number } };
  console.log(
    `slow clients soak: ${SECONDS} s, ${NODES} nodes; hostile polls answered ${load.polls?.ok ?? '?'} ` +
      `(failed or refused ${load.polls?.failed ?? '?'})`,
  );
  console.log(
    `good client ${PATH}: quiet p50 ${percentile(quiet, 50).toFixed(2)} ms p99 ` +
      `${percentile(quiet, 99).toFixed(2)} ms; loaded p50 ${percentile(loaded, 50).toFixed(2)} ms ` +
      `p99 ${percentile(loaded, 99).toFixed(2)} ms; latency ratio p50 ${ratio(50).toFixed(2)} ` +
      `p99 ${ratio(99).toFixed(2)}`,
  );
  console.log(
    `server descriptors: start ${fds0}, peak ${fdsPeak}, after ${fdsAfter}; ` +
      `RSS MiB: start ${rss0.toFixed(0)}, peak ${rssPeak.toFixed(0)}, after ${rssAfter.toFixed(0)}; ` +
      `heap used MiB: start ${self0.heapMiB.toFixed(0)}, after ${selfAfter.heapMiB.toFixed(0)}; ` +
      `active handles: start ${self0.handles}, after ${selfAfter.handles}`,
  );
  process.exitCode = fdsAfter <= fds0 + 5 ? 0 : 1;
} finally {
  await dash.kill('SIGKILL');
}
