/**
 * Crash soak (issue 25): SIGKILL a real Dash under ingest load again and again on one home.
 * Run: npm run soak:crash (SOAK_ROUNDS, default 20; SOAK_ACKS, reports to wait for per round).
 * Prints each round and a closing line: kills, reports acknowledged versus found, integrity.
 */
import { crashRounds } from '../support/crash-rounds.js';

const rounds = Number(process.env.SOAK_ROUNDS ?? 20);
const ackTarget = Number(process.env.SOAK_ACKS ?? 1000);

const started = Date.now();
const summary = await crashRounds({
  rounds,
  ackTarget,
  waitMs: 60_000,
  senders: 32,
  log: (line) => console.log(line),
});
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(
  `crash soak: ${summary.rounds.length} SIGKILLs in ${seconds} s, acknowledged ${summary.acked}, ` +
    `found ${summary.found}, lost ${summary.lost.length}, ` +
    `integrity failures ${summary.integrityFailures}`,
);
if (summary.lost.length > 0) console.log('lost:', JSON.stringify(summary.lost.slice(0, 20)));
process.exitCode = summary.lost.length === 0 && summary.integrityFailures === 0 ? 0 : 1;
