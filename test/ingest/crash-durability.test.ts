import { describe, expect, it } from 'vitest';
import { crashRounds } from '../support/crash-rounds.js';

/**
 * SIGKILL during ingest load, three times on one home (the soak run does 20 or more:
 * `npm run soak:crash`). Every report answered 200 is found after the kill (in the ingest
 * threads' open-block logs, or in blocks once the next start sealed them), and the database left
 * behind passes PRAGMA integrity_check and serves the next round.
 */
describe('durability under SIGKILL', () => {
  it('keeps every report that was answered 200 across three kills under load', async () => {
    const summary = await crashRounds({ rounds: 3, ackTarget: 60 });
    const detail = JSON.stringify(summary.rounds);
    for (const r of summary.rounds) expect(r.acked, detail).toBeGreaterThan(20);
    // The reports went to the open-block logs (replayed and sealed at each start), not to rows.
    for (const r of summary.rounds) expect(r.rawRows, detail).toBe(0);
    expect(summary.integrityFailures, detail).toBe(0);
    expect(summary.lost, detail).toEqual([]);
    expect(summary.found).toBe(summary.acked);
  }, 240_000);
});
