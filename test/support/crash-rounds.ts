import { join } from 'node:path';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { historySource } from '../../src/store/sqlite/history-source.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { agentReport } from './agent-payloads.js';
import { startDash, type DashProcess } from './dash-process.js';
import { seedNodes } from './seed-home.js';
import { tempHome } from './build-app.js';

const MEM_USED = HOST_METRICS.indexOf('mem.used');

export interface CrashRound {
  round: number;
  startupMs: number;
  acked: number;
  lost: number;
  integrity: string;
  /** Rows in metrics_raw after the kill: the ingest threads write their open-block logs instead. */
  rawRows: number;
}

export interface CrashSummary {
  rounds: CrashRound[];
  acked: number;
  found: number;
  lost: Array<{ node: number; marker: number }>;
  integrityFailures: number;
}

export interface CrashOptions {
  rounds: number;
  /** Acknowledged reports to wait for before each kill (bounded by waitMs). */
  ackTarget: number;
  waitMs?: number;
  nodes?: number;
  senders?: number;
  log?: (line: string) => void;
}

/**
 * SIGKILL under ingest load, repeated on one Dash home: each round starts the real server on
 * the database the previous kill left behind, sends concurrent reports, kills it with -9 once
 * enough were answered 200, then opens the database and checks it is intact and holds every
 * acknowledged report (each carries a unique memory.used value, stored exactly in its row).
 */
export async function crashRounds(opts: CrashOptions): Promise<CrashSummary> {
  const home = tempHome();
  const secrets = await seedNodes(home, opts.nodes ?? 8);
  const acked: Array<{ node: number; marker: number }> = [];
  const rounds: CrashRound[] = [];
  let marker = 1_000_000;
  let lost: Array<{ node: number; marker: number }> = [];
  let integrityFailures = 0;
  for (let round = 1; round <= opts.rounds; round++) {
    const dash: DashProcess = await startDash(home);
    const ackedBefore = acked.length;
    let stop = false;
    const sender = async (worker: number) => {
      while (!stop) {
        const node = worker % secrets.length;
        const report = agentReport({ seq: marker });
        const mine = ++marker;
        report.metrics.memory.used = mine;
        try {
          const res = await fetch(`${dash.base}/api/node/metrics`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-node-secret': secrets[node]! },
            body: JSON.stringify(report),
            signal: AbortSignal.timeout(15_000),
          });
          if (res.status === 200) acked.push({ node: node + 1, marker: mine });
          await res.arrayBuffer();
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: opts.senders ?? 24 }, (_, i) => sender(i));
    const waitMs = opts.waitMs ?? 20_000;
    // A random point after the target, so kills land at different moments of a write.
    const target = ackedBefore + opts.ackTarget + Math.floor(Math.random() * opts.ackTarget);
    for (let waited = 0; acked.length < target && waited < waitMs; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await dash.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);

    const store = openSqliteStore(join(home, 'dash.db'), Date.now());
    let integrity: string;
    let rawRows: number;
    try {
      rawRows = store.raw.prepare('SELECT count(*) FROM metrics_raw').pluck().get() as number;
      integrity = (store.raw.pragma('integrity_check') as Array<{ integrity_check: string }>)
        .map((r) => r.integrity_check)
        .join('; ');
      // Raw history: blocks, raw rows and the ingest threads' open-block logs, as the next
      // start finds them (it seals the logs).
      const history = historySource(store.raw, store.openLogs);
      const stored = new Set<string>();
      for (let node = 1; node <= secrets.length; node++) {
        for (const p of history.hostSeries(node, MEM_USED, 0, Number.MAX_SAFE_INTEGER)) {
          stored.add(`${node}:${p.value}`);
        }
      }
      lost = acked.filter((a) => !stored.has(`${a.node}:${a.marker}`));
    } finally {
      await store.close();
    }
    if (integrity !== 'ok') integrityFailures++;
    const r: CrashRound = {
      round,
      startupMs: dash.startupMs,
      acked: acked.length - ackedBefore,
      lost: lost.length,
      integrity,
      rawRows,
    };
    rounds.push(r);
    opts.log?.(
      `round ${round}: startup ${r.startupMs} ms, acknowledged ${r.acked}, ` +
        `lost so far ${r.lost}, integrity ${integrity}`,
    );
  }
  return {
    rounds,
    acked: acked.length,
    found: acked.length - lost.length,
    lost,
    integrityFailures,
  };
}
