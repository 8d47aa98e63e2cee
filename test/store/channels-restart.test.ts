import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { DataKey } from '../../src/platform/data-key.js';
import { OutboxWorker } from '../../src/domain/channels/outbox-worker.js';
import type { ChannelSender, NotifyMessage } from '../../src/domain/channels/delivery.js';
import { FakeClock } from '../support/fake-clock.js';
import { tempHome } from '../support/build-app.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function open(path: string, clock: FakeClock): SqliteStore {
  const s = openSqliteStore(path, clock.now());
  stores.push(s);
  return s;
}

function seed(store: SqliteStore, key: DataKey, now: number, transitions: number): void {
  const raw = store.raw;
  raw
    .prepare(
      `INSERT INTO notify_channels (name, type, config_sealed, enabled, revision, created_at, updated_at)
       VALUES ('hook', 'webhook', ?, 1, 1, ?, ?)`,
    )
    .run(key.encrypt(JSON.stringify({ url: 'http://127.0.0.1:9/h' })), now, now);
  raw
    .prepare(
      `INSERT INTO alert_settings (id, enabled, channel_ids, created_at, updated_at)
       VALUES (1, 1, '[1]', ?, ?) ON CONFLICT (id) DO UPDATE SET channel_ids = '[1]'`,
    )
    .run(now, now);
  for (let i = 1; i <= transitions; i++) {
    raw
      .prepare(
        `INSERT INTO alert_events (rule_id, rule_generation, rule_name, node_id, metric, status,
           first_trigger_at, last_trigger_at) VALUES (1, 1, 'CPU high', ?, 'cpu.usage_ratio', 'open', ?, ?)`,
      )
      .run(i, now, now);
    raw
      .prepare(
        `INSERT INTO alert_transitions (event_id, transition, created_at) VALUES (?, 'opened', ?)`,
      )
      .run(i, now);
  }
}

describe('delivery outbox across a restart', () => {
  it('neither loses nor repeats notifications when the process dies mid-delivery', async () => {
    const home = tempHome();
    const path = join(home, 'dash.db');
    const key = DataKey.fromFile(join(home, 'secrets', 'data.key'));
    const clock = new FakeClock();
    const delivered: string[] = [];
    let crashAfter = 2;
    const sender: ChannelSender = {
      async send(_c, msg: NotifyMessage) {
        if (crashAfter === 0) throw new Error('process killed'); // never reaches the commit
        crashAfter--;
        delivered.push(String(msg.meta?.dedupe_key));
      },
    };
    const first = open(path, clock);
    seed(first, key, clock.now(), 4);
    // The "crash": the third send dies before its result is committed, leaving a lease.
    const dying = new OutboxWorker({
      repo: first.channels,
      sealer: key,
      clock,
      sender: {
        async send(c, msg, at) {
          if (crashAfter === 0) {
            await first.close();
            throw new Error('process killed');
          }
          return sender.send(c, msg, at);
        },
      },
      warn: () => undefined,
      leaseMs: 60_000,
    });
    await expect(dying.runOnce(clock.now())).rejects.toThrow();
    expect(delivered).toEqual(['alert:1:opened:1', 'alert:2:opened:1']);

    clock.advance(1000);
    const second = open(path, clock);
    crashAfter = Infinity;
    const worker = new OutboxWorker({
      repo: second.channels,
      sealer: DataKey.fromFile(join(home, 'secrets', 'data.key')),
      clock,
      sender,
      warn: () => undefined,
      leaseMs: 60_000,
    });
    await worker.runOnce(clock.now());
    // The fourth item was never leased: sent now. The third waits for its lease to expire.
    expect(delivered).toEqual(['alert:1:opened:1', 'alert:2:opened:1', 'alert:4:opened:1']);
    clock.advance(60_000);
    await worker.runOnce(clock.now());
    await worker.runOnce(clock.now());
    expect(delivered.sort()).toEqual([
      'alert:1:opened:1',
      'alert:2:opened:1',
      'alert:3:opened:1',
      'alert:4:opened:1',
    ]);
    const states = second.raw.prepare('SELECT state FROM notify_outbox').all() as Array<{
      state: string;
    }>;
    expect(states.map((s) => s.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const undispatched = second.raw
      .prepare('SELECT COUNT(*) AS n FROM alert_transitions WHERE dispatched_at IS NULL')
      .get() as { n: number };
    expect(undispatched.n).toBe(0);
  });
});
