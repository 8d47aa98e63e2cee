import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MetricsWrite } from '../../../src/store/ports.js';
import { openSqliteConnection } from '../../../src/store/sqlite/connection.js';
import { SEEN_CHUNK } from '../../../src/store/sqlite/device-registry.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogCommitter } from '../../../src/store/sqlite/open-log-committer.js';
import type { WriteSlot } from '../../../src/store/sqlite/report-rules.js';
import { tempHome } from '../../support/build-app.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { seedNodes } from '../../support/seed-home.js';

const T0 = 1_764_000_000_000;

/** A write slot that counts how often it was taken. */
function countingSlot(): WriteSlot & { taken: number } {
  const slot = {
    taken: 0,
    acquire() {
      slot.taken++;
    },
    release() {},
  };
  return slot;
}

async function committer(nodes = 2) {
  const home = tempHome();
  await seedNodes(home, nodes);
  const path = join(home, 'dash.db');
  const db = openSqliteConnection(path);
  const log = OpenLogFile.open(`${path}-open-0`, { shard: 0, from: 0 });
  const slot = countingSlot();
  let now = T0;
  const c = new OpenLogCommitter(db, log, () => now, slot);
  const lastSeen = () =>
    db
      .prepare('SELECT DISTINCT last_seen_at FROM metric_devices WHERE node_id = 1')
      .pluck()
      .all() as number[];
  return {
    c,
    db,
    slot,
    lastSeen,
    setNow: (t: number) => (now = t),
    close: () => log.close(),
  };
}

const w = (node: number, at: number, opts: { ip?: string; hostname?: string } = {}): MetricsWrite =>
  metricsWrite(node, at, { deadline: Infinity, ...opts });

describe('batches that only append to the open-block log', () => {
  it('take no write slot and write nothing to SQLite once the node is known', async () => {
    const { c, slot, close } = await committer();
    c.commitBatch([w(1, T0), w(2, T0)]);
    // First reports: devices, addresses and node_current rows go to SQLite, in the slot.
    expect(slot.taken).toBe(1);
    expect(c.rules.tookSlot).toBe(true);
    expect(c.sqliteWritten).toBe(true);
    expect(c.commitBatch([w(1, T0 + 3000), w(2, T0 + 3000)])).toEqual(['current', 'current']);
    expect(slot.taken).toBe(1);
    expect(c.rules.tookSlot).toBe(false);
    expect(c.sqliteWritten).toBe(false);
    close();
  });

  it('take the slot again for a changed address', async () => {
    const { c, db, slot, close } = await committer();
    c.commitBatch([w(1, T0)]);
    c.commitBatch([w(1, T0 + 3000, { ip: '10.0.0.9' })]);
    expect(slot.taken).toBe(2);
    expect(c.sqliteWritten).toBe(true);
    expect(db.prepare('SELECT ip FROM nodes WHERE id = 1').pluck().get()).toBe('10.0.0.9');
    close();
  });

  it('take the slot for a node seen for the first time since start', async () => {
    const { c, slot, close } = await committer();
    c.commitBatch([w(1, T0)]);
    c.commitBatch([w(1, T0 + 3000), w(2, T0 + 3000)]);
    expect(slot.taken).toBe(2);
    close();
  });

  it('defer due last-seen refreshes to a batch that takes the slot, at most 2 minutes late', async () => {
    const { c, slot, lastSeen, setNow, close } = await committer();
    c.commitBatch([w(1, T0)]);
    expect(lastSeen()).toEqual([T0]);
    // Due after a minute: queued, not written, and the batch stays out of the slot.
    setNow(T0 + 60_000);
    c.commitBatch([w(1, T0 + 60_000)]);
    setNow(T0 + 90_000);
    c.commitBatch([w(1, T0 + 90_000)]);
    expect(slot.taken).toBe(1);
    expect(lastSeen()).toEqual([T0]);
    // A batch that takes the slot anyway (node 2's first report) writes the newest seen time.
    c.commitBatch([w(2, T0 + 91_000)]);
    expect(slot.taken).toBe(2);
    expect(lastSeen()).toEqual([T0 + 90_000]);
    // Queued again a minute later; once it has waited a minute, a batch takes the slot for it.
    setNow(T0 + 150_000);
    c.commitBatch([w(1, T0 + 150_000)]);
    expect(slot.taken).toBe(2);
    setNow(T0 + 210_000);
    c.commitBatch([w(1, T0 + 210_000)]);
    expect(slot.taken).toBe(3);
    expect(lastSeen()).toEqual([T0 + 210_000]);
    close();
  });

  it(`take the slot once ${SEEN_CHUNK} refreshes wait, writing at most that many per batch`, async () => {
    const nodes = 120; // ≈ 10 devices each: over SEEN_CHUNK refreshes in all
    const { c, db, slot, setNow, close } = await committer(nodes);
    const ids = Array.from({ length: nodes }, (_, i) => i + 1);
    c.commitBatch(ids.map((id) => w(id, T0)));
    const devices = db.prepare('SELECT count(*) FROM metric_devices').pluck().get() as number;
    expect(devices).toBeGreaterThan(SEEN_CHUNK);
    const stale = () =>
      db.prepare('SELECT count(*) FROM metric_devices WHERE last_seen_at = ?').pluck().get(T0);
    setNow(T0 + 60_000);
    let taken = slot.taken;
    let reached = false;
    for (const id of ids) {
      c.commitBatch([w(id, T0 + 60_000)]);
      if (slot.taken > taken) {
        // The batch that brought the queue to SEEN_CHUNK took the slot next time, and wrote
        // exactly that many.
        expect(stale()).toBe(devices - SEEN_CHUNK);
        reached = true;
        break;
      }
      taken = slot.taken;
    }
    expect(reached).toBe(true);
    close();
  });
});
