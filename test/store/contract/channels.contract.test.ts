import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type EngineStore } from '../engines.js';
import { compose, HOOK, items, openEvents, states, useChannels } from './channel-fixtures.js';

describe.each(ENGINES)('channels repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('creates, lists newest first, reads one and checks that ids exist', async () => {
    const a = await store.channels.create(HOOK, 10);
    const b = await store.channels.create(
      { ...HOOK, name: 'mail', type: 'email', enabled: false },
      20,
    );
    expect((await store.channels.list()).map((c) => c.id)).toEqual([b, a]);
    expect(await store.channels.get(a)).toEqual({
      id: a,
      name: 'hook',
      type: 'webhook',
      sealedConfig: 'sealed',
      enabled: true,
      revision: 1,
      createdAt: 10,
      updatedAt: 10,
      lastSuccessAt: null,
      lastFailureAt: null,
      consecutiveFailures: 0,
      lastErrorCode: null,
      lastError: null,
    });
    expect((await store.channels.get(b))?.enabled).toBe(false);
    expect(await store.channels.get(99)).toBeUndefined();
    expect(await store.channels.allExist([])).toBe(true);
    expect(await store.channels.allExist([a, b, a])).toBe(true);
    expect(await store.channels.allExist([a, 99])).toBe(false);
  });

  it('replaces and re-seals only at the expected revision', async () => {
    const a = await store.channels.create(HOOK, 10);
    expect(await store.channels.replace(99, 1, HOOK, 20)).toBe('missing');
    expect(await store.channels.replace(a, 2, HOOK, 20)).toBe('changed');
    expect(await store.channels.replace(a, 1, { ...HOOK, name: 'renamed' }, 20)).toBe('ok');
    expect(await store.channels.get(a)).toMatchObject({
      name: 'renamed',
      revision: 2,
      updatedAt: 20,
    });
    expect(await store.channels.updateConfig(99, 2, 'x', 30)).toBe('missing');
    expect(await store.channels.updateConfig(a, 1, 'x', 30)).toBe('changed');
    expect(await store.channels.updateConfig(a, 2, 'session', 30)).toBe('ok');
    expect(await store.channels.get(a)).toMatchObject({ sealedConfig: 'session', revision: 3 });
    expect(await store.channels.setEnabled(99, false, 40)).toBe(false);
    expect(await store.channels.setEnabled(a, false, 40)).toBe(true);
    expect(await store.channels.get(a)).toMatchObject({
      enabled: false,
      revision: 4,
      updatedAt: 40,
    });
  });

  it('fans each transition out once per configured channel, paused for a disabled one', async () => {
    await store.nodes.create({ name: 'web-01', secretHash: 'h', secretEnc: 'e' }, 1);
    const a = await store.channels.create(HOOK, 1);
    const b = await store.channels.create({ ...HOOK, enabled: false }, 1);
    const unused = await store.channels.create(HOOK, 1);
    expect(await store.channels.fanOut(100, compose, 10)).toBe(0);
    await openEvents(store, 3);
    // No settings yet: transitions are marked dispatched without items.
    expect(await store.channels.fanOut(100, compose, 1)).toBe(1);
    // The same channel listed twice still gets one item (the dedupe key).
    await useChannels(store, [b, a, a, 99]);
    expect(await store.channels.fanOut(200, compose, 10)).toBe(2);
    expect(await store.channels.fanOut(300, compose, 10)).toBe(0);
    const rows = await items(store);
    expect(rows.map((i) => [i.channel_id, i.dedupe_key, i.state, i.next_at, i.payload])).toEqual([
      [b, `alert:2:opened:${b}`, 'paused', 200, '#2/CPU high/opened'],
      [a, `alert:2:opened:${a}`, 'pending', 200, '#2/CPU high/opened'],
      [b, `alert:3:opened:${b}`, 'paused', 200, '#3/CPU high/opened'],
      [a, `alert:3:opened:${a}`, 'pending', 200, '#3/CPU high/opened'],
    ]);
    expect(rows.some((i) => i.channel_id === unused)).toBe(false);
    expect(await store.channels.backlog()).toEqual(
      new Map([
        [b, { pending: 2, blocked: 0, nextRetryAt: null, nextProbeAt: null }],
        [a, { pending: 2, blocked: 0, nextRetryAt: null, nextProbeAt: null }],
      ]),
    );
    // Node names come from the node row when it is there.
    await store.alerts.applyTransitions(
      [1, 2].map((nodeId) => ({
        kind: 'close' as const,
        nodeId,
        ruleId: 1,
        at: 5000,
        reason: 'recovered',
        notify: true,
        silenced: false,
        flapping: false,
      })),
    );
    expect(await store.channels.fanOut(400, compose, 10)).toBe(2);
    expect((await items(store)).slice(4).map((i) => i.payload)).toEqual([
      'web-01/CPU high/closed',
      'web-01/CPU high/closed',
      '#2/CPU high/closed',
      '#2/CPU high/closed',
    ]);
  });

  it('holds items of a digest channel until its window ends', async () => {
    const a = await store.channels.create(HOOK, 1);
    const plain = await store.channels.create(HOOK, 1);
    await useChannels(store, [a, plain]);
    await openEvents(store, 2);
    const digest = (id: number) => (id === a ? 60_000 : 0);
    expect(await store.channels.fanOut(1000, compose, 1, digest)).toBe(1);
    expect(await store.channels.fanOut(5000, compose, 1, digest)).toBe(1);
    expect((await items(store)).map((i) => [i.channel_id, i.next_at])).toEqual([
      [a, 61_000],
      [plain, 1000],
      [a, 61_000],
      [plain, 5000],
    ]);
    for (let i = 0; i < 2; i++) {
      const item = (await store.channels.lease(5000, 9000))!;
      expect(item.channelId).toBe(plain);
      await store.channels.complete(item, 1, { kind: 'sent' }, 5000);
    }
    expect(await store.channels.lease(5000, 9000)).toBeUndefined();
    const first = await store.channels.lease(61_000, 90_000);
    expect(first).toMatchObject({
      channelId: a,
      dedupeKey: `alert:1:opened:${a}`,
      leasedFrom: 'pending',
    });
    const more = await store.channels.leaseMore(a, 61_000, 90_000, 5);
    expect(more.map((i) => i.dedupeKey)).toEqual([`alert:2:opened:${a}`]);
    expect(await store.channels.leaseMore(a, 61_000, 90_000, 5)).toEqual([]);
    await store.channels.complete(first!, 1, { kind: 'sent' }, 61_500, more);
    expect(await states(store)).toEqual([
      `alert:1:opened:${a}=sent`,
      `alert:1:opened:${plain}=sent`,
      `alert:2:opened:${a}=sent`,
      `alert:2:opened:${plain}=sent`,
    ]);
    expect(await store.channels.get(a)).toMatchObject({
      lastSuccessAt: 61_500,
      consecutiveFailures: 0,
    });
  });

  it('leases the earliest due item, retakes an expired lease, and leases more oldest first', async () => {
    const a = await store.channels.create(HOOK, 1);
    const b = await store.channels.create(HOOK, 1);
    await useChannels(store, [a, b]);
    await openEvents(store, 3);
    await store.channels.fanOut(100, compose, 10);
    const first = await store.channels.lease(100, 1000);
    expect(first).toEqual({
      id: 1,
      channelId: a,
      dedupeKey: `alert:1:opened:${a}`,
      payload: '#1/CPU high/opened',
      leasedFrom: 'pending',
      attempts: 0,
      probes: 0,
    });
    // Not due before its time.
    expect(await store.channels.lease(99, 1000)).toBeUndefined();
    const more = await store.channels.leaseMore(a, 100, 1000, 1);
    expect(more.map((i) => i.id)).toEqual([3]);
    expect((await store.channels.leaseMore(b, 100, 1000, 10)).map((i) => i.id)).toEqual([2, 4, 6]);
    expect((await store.channels.lease(100, 1000))?.id).toBe(5);
    expect(await store.channels.lease(500, 1000)).toBeUndefined();
    // A lease that ran out (the instance died mid-send) is taken again, as `sending`.
    expect(await store.channels.lease(1000, 2000)).toMatchObject({ id: 1, leasedFrom: 'sending' });
  });

  it('records retries, blocks the channel backlog, probes, and wakes it on success', async () => {
    const a = await store.channels.create(HOOK, 1);
    await useChannels(store, [a]);
    await openEvents(store, 3);
    await store.channels.fanOut(100, compose, 10);

    const one = (await store.channels.lease(100, 1000))!;
    await store.channels.complete(
      one,
      1,
      { kind: 'retry', nextAt: 500, code: 'http_503', error: 'busy' },
      110,
    );
    expect(await store.channels.get(a)).toMatchObject({
      lastFailureAt: 110,
      consecutiveFailures: 1,
      lastErrorCode: 'http_503',
      lastError: 'busy',
    });
    // A second outcome for the same lease changes nothing (the item is no longer sending).
    await store.channels.complete(one, 1, { kind: 'sent' }, 120);
    expect((await items(store))[0]).toMatchObject({ state: 'retry', attempts: 1, next_at: 500 });
    expect((await store.channels.backlog()).get(a)).toEqual({
      pending: 3,
      blocked: 0,
      nextRetryAt: 500,
      nextProbeAt: null,
    });

    const two = (await store.channels.lease(200, 1000))!;
    expect(two.id).toBe(2);
    await store.channels.complete(
      two,
      1,
      { kind: 'blocked', nextAt: 9000, code: 'http_401', error: 'denied', probe: false },
      210,
    );
    // The channel's other unsent items wait behind the block.
    expect((await items(store)).map((i) => [i.state, i.next_at, i.attempts])).toEqual([
      ['blocked', 9000, 1],
      ['blocked', 9000, 1],
      ['blocked', 9000, 0],
    ]);
    expect((await store.channels.backlog()).get(a)).toEqual({
      pending: 3,
      blocked: 3,
      nextRetryAt: null,
      nextProbeAt: 9000,
    });
    expect((await store.channels.get(a))?.consecutiveFailures).toBe(2);

    const probe = (await store.channels.lease(9000, 20_000))!;
    expect(probe).toMatchObject({ id: 1, leasedFrom: 'blocked' });
    await store.channels.complete(
      probe,
      1,
      { kind: 'blocked', nextAt: 30_000, code: 'http_401', error: 'denied', probe: true },
      9010,
    );
    expect((await items(store))[0]).toMatchObject({ probes: 1, attempts: 2, next_at: 30_000 });

    const again = (await store.channels.lease(30_000, 40_000))!;
    await store.channels.complete(again, 1, { kind: 'sent' }, 30_010);
    expect((await items(store)).map((i) => [i.state, i.next_at, i.attempts, i.probes])).toEqual([
      ['sent', 30_000, 2, 1],
      ['retry', 30_010, 0, 0],
      ['retry', 30_010, 0, 0],
    ]);
    expect(await store.channels.get(a)).toMatchObject({
      lastSuccessAt: 30_010,
      consecutiveFailures: 0,
      lastErrorCode: null,
      lastError: null,
    });

    // Health is left alone when the channel's revision moved on; a discard needs none.
    const late = (await store.channels.lease(30_010, 40_000))!;
    await store.channels.replace(a, 1, HOOK, 30_020);
    await store.channels.complete(
      late,
      1,
      { kind: 'retry', nextAt: 50_000, code: 'x', error: 'x' },
      30_030,
    );
    expect((await store.channels.get(a))?.consecutiveFailures).toBe(0);
    const last = (await store.channels.lease(30_030, 40_000))!;
    await store.channels.complete(last, 2, { kind: 'discarded', code: 'payload_invalid' }, 30_040);
    expect((await items(store)).map((i) => [i.state, i.last_error_code])).toEqual([
      ['sent', null],
      ['retry', 'x'],
      ['discarded', 'payload_invalid'],
    ]);
  });

  it('pauses, wakes and discards unsent items with channel changes', async () => {
    const a = await store.channels.create(HOOK, 1);
    const b = await store.channels.create(HOOK, 1);
    await useChannels(store, [a, b]);
    await openEvents(store, 2);
    await store.channels.fanOut(100, compose, 10);
    const leased = (await store.channels.lease(100, 1000))!;
    await store.channels.complete(
      leased,
      1,
      { kind: 'retry', nextAt: 800, code: 'c', error: 'e' },
      100,
    );
    expect(await store.channels.setEnabled(a, false, 200)).toBe(true);
    expect(await states(store)).toEqual([
      `alert:1:opened:${a}=paused`,
      `alert:1:opened:${b}=pending`,
      `alert:2:opened:${a}=paused`,
      `alert:2:opened:${b}=pending`,
    ]);
    expect(await store.channels.lease(10_000, 20_000)).toMatchObject({ channelId: b });
    await store.channels.setEnabled(a, true, 300);
    expect(
      (await items(store))
        .filter((i) => i.channel_id === a)
        .map((i) => [i.state, i.next_at, i.attempts]),
    ).toEqual([
      ['retry', 300, 0],
      ['retry', 300, 0],
    ]);
    // Same type, disabled: pause; enabled again by a replace: wake.
    await store.channels.replace(a, 3, { ...HOOK, enabled: false }, 400);
    expect((await items(store)).filter((i) => i.channel_id === a).map((i) => i.state)).toEqual([
      'paused',
      'paused',
    ]);
    await store.channels.replace(a, 4, HOOK, 500);
    expect((await items(store)).filter((i) => i.channel_id === a).map((i) => i.state)).toEqual([
      'retry',
      'retry',
    ]);
    // A new session for an enabled channel wakes it too.
    expect(await store.channels.updateConfig(a, 5, 'session', 550)).toBe('ok');
    // A type change discards what was waiting.
    await store.channels.replace(a, 6, { ...HOOK, type: 'email' }, 600);
    expect(
      (await items(store))
        .filter((i) => i.channel_id === a)
        .map((i) => [i.state, i.finished_at, i.last_error_code]),
    ).toEqual([
      ['discarded', 600, 'channel_type_changed'],
      ['discarded', 600, 'channel_type_changed'],
    ]);
    // Deleting discards the rest and drops the channel from the alert settings.
    expect(await store.channels.delete(b, 700)).toBe(true);
    expect(await store.channels.delete(b, 701)).toBe(false);
    expect(await store.channels.get(b)).toBeUndefined();
    expect((await store.alerts.settings())?.channelIds).toEqual([a]);
    expect(await states(store)).toEqual([
      `alert:1:opened:${a}=discarded`,
      `alert:1:opened:${b}=discarded`,
      `alert:2:opened:${a}=discarded`,
      `alert:2:opened:${b}=discarded`,
    ]);
    expect(await store.channels.backlog()).toEqual(new Map());
  });

  it('records test sends; a successful one wakes a blocked enabled channel', async () => {
    const a = await store.channels.create(HOOK, 1);
    await useChannels(store, [a]);
    await openEvents(store, 2);
    await store.channels.fanOut(100, compose, 10);
    const item = (await store.channels.lease(100, 1000))!;
    await store.channels.complete(
      item,
      1,
      { kind: 'blocked', nextAt: 99_000, code: 'http_401', error: 'denied', probe: false },
      100,
    );
    await store.channels.recordTest(a, 1, { ok: false, code: 'http_401', error: 'still' }, 200);
    expect(await store.channels.get(a)).toMatchObject({
      consecutiveFailures: 2,
      lastError: 'still',
    });
    // A stale revision leaves health alone; the success still wakes the blocked items.
    await store.channels.recordTest(a, 7, { ok: true }, 250);
    expect(await store.channels.get(a)).toMatchObject({
      lastSuccessAt: null,
      consecutiveFailures: 2,
    });
    expect((await items(store)).map((i) => [i.state, i.next_at, i.attempts])).toEqual([
      ['retry', 250, 0],
      ['retry', 250, 0],
    ]);
    await store.channels.recordTest(a, 1, { ok: true }, 300);
    expect(await store.channels.get(a)).toMatchObject({
      lastSuccessAt: 300,
      consecutiveFailures: 0,
    });
    // A disabled channel's items stay paused.
    await store.channels.setEnabled(a, false, 400);
    await store.channels.recordTest(a, 2, { ok: true }, 500);
    expect((await items(store)).map((i) => i.state)).toEqual(['paused', 'paused']);
  });
});
