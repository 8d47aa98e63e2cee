import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataKey } from '../../../src/platform/data-key.js';
import { OutboxWorker } from '../../../src/domain/channels/outbox-worker.js';
import type { ChannelSender } from '../../../src/domain/channels/delivery.js';
import { FakeClock } from '../../support/fake-clock.js';
import { tempHome } from '../../support/build-app.js';
import { ENGINES, readRows, type EngineStore } from '../engines.js';
import { compose, HOOK, items, openEvents, useChannels } from './channel-fixtures.js';

describe.each(ENGINES)('delivery outbox with two instances on $name', ({ openShared }) => {
  const stores: EngineStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0).reverse()) await s.close();
  });
  const two = async () => {
    const { store, another } = await openShared();
    stores.push(store);
    const peer = await another();
    stores.push(peer);
    return [store, peer] as const;
  };

  it('fans out and delivers every item exactly once when both work at the same time', async () => {
    const [a, b] = await two();
    const channels = [await a.channels.create(HOOK, 1), await a.channels.create(HOOK, 1)];
    await useChannels(a, channels);
    await openEvents(a, 40);
    const fanned = await Promise.all([
      ...[a, b, a, b].map((s, i) => s.channels.fanOut(100 + i, compose, 7)),
    ]);
    let total = fanned.reduce((x, y) => x + y, 0);
    while (total < 40) total += await b.channels.fanOut(200, compose, 50);
    expect(total).toBe(40);
    expect(await b.channels.fanOut(300, compose, 50)).toBe(0);

    const sent = new Map<string, number>();
    const work = async (s: EngineStore) => {
      for (;;) {
        const item = await s.channels.lease(1000, 60_000);
        if (item === undefined) return;
        const also = await s.channels.leaseMore(item.channelId, 1000, 60_000, 2);
        for (const it of [item, ...also]) sent.set(it.dedupeKey, (sent.get(it.dedupeKey) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 1));
        await s.channels.complete(item, 1, { kind: 'sent' }, 1001, also);
      }
    };
    await Promise.all([work(a), work(b), work(a), work(b)]);
    expect(sent.size).toBe(80);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    const rows = await items(a);
    expect(rows).toHaveLength(80);
    expect(rows.every((r) => r.state === 'sent')).toBe(true);
    expect(new Set(rows.map((r) => r.dedupe_key)).size).toBe(80);
  });

  it('neither loses nor repeats notifications when an instance dies mid-delivery', async () => {
    const [first, restarted] = await two();
    const home = tempHome();
    const key = DataKey.fromFile(join(home, 'secrets', 'data.key'));
    const clock = new FakeClock();
    const ch = await first.channels.create(
      { ...HOOK, sealedConfig: key.encrypt(JSON.stringify({ url: 'http://127.0.0.1:9/h' })) },
      clock.now(),
    );
    await useChannels(first, [ch]);
    await openEvents(first, 4);
    const delivered: string[] = [];
    let crashAfter = 2;
    const sender: ChannelSender = {
      async send(_c, msg) {
        if (crashAfter === 0) throw new Error('process killed'); // never reaches the commit
        crashAfter--;
        delivered.push(String(msg.meta?.dedupe_key));
      },
    };
    const worker = (s: EngineStore, send: ChannelSender) =>
      new OutboxWorker({
        repo: s.channels,
        sealer: key,
        clock,
        sender: send,
        warn: () => undefined,
        leaseMs: 60_000,
      });
    // The "crash": the third send dies with its instance before its result is committed.
    const dying = worker(first, {
      async send(c, msg, at) {
        if (crashAfter === 0) {
          stores.splice(stores.indexOf(first), 1);
          await first.close();
          throw new Error('process killed');
        }
        return sender.send(c, msg, at);
      },
    });
    await expect(dying.runOnce(clock.now())).rejects.toThrow();
    expect(delivered).toEqual([`alert:1:opened:${ch}`, `alert:2:opened:${ch}`]);

    clock.advance(1000);
    crashAfter = Infinity;
    const survivor = worker(restarted, sender);
    await survivor.runOnce(clock.now());
    // The fourth item was never leased: sent now. The third waits for its lease to expire.
    expect(delivered).toEqual([
      `alert:1:opened:${ch}`,
      `alert:2:opened:${ch}`,
      `alert:4:opened:${ch}`,
    ]);
    clock.advance(60_000);
    await survivor.runOnce(clock.now());
    await survivor.runOnce(clock.now());
    expect(delivered.sort()).toEqual([1, 2, 3, 4].map((e) => `alert:${e}:opened:${ch}`));
    expect((await items(restarted)).map((i) => i.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const undispatched = await readRows<{ n: number }>(
      restarted,
      'SELECT COUNT(*) AS n FROM alert_transitions WHERE dispatched_at IS NULL',
    );
    expect(undispatched[0]?.n).toBe(0);
  });
});
