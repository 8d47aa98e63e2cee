import { afterEach, describe, expect, it } from 'vitest';
import { UptimeService } from '../../../src/domain/uptime/uptime-service.js';
import { SystemSettingsService } from '../../../src/domain/settings/system-settings.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import { FakeClock } from '../../support/fake-clock.js';
import { insertNode } from '../../support/seed.js';

const T = 17_000;
let store: SqliteStore;
afterEach(async () => store?.close());

function setup(zone: string, start: number) {
  store = openSqliteStore(':memory:', 0);
  const clock = new FakeClock(start);
  const settings = new SystemSettingsService(store.settings, clock);
  const uptime = new UptimeService(store.uptime, settings, clock, zone, T);
  return { clock, uptime, settings };
}

/** Reports every `every` ms while `online(t)` holds, finalising minute by minute, up to `until`. */
async function simulate(
  ctx: ReturnType<typeof setup>,
  nodeId: number,
  until: number,
  online: (t: number) => boolean,
  every = 3000,
) {
  const { clock, uptime } = ctx;
  while (clock.now() < until) {
    if (online(clock.now())) uptime.recordReceipt(nodeId, clock.now());
    clock.advance(every);
    if (clock.now() % 60_000 < every) await uptime.finalise();
  }
}

describe('uptime service', () => {
  it('counts a fully online hour as 100 % and a silent stretch as offline', async () => {
    const start = Date.UTC(2026, 10, 20, 10, 0, 0);
    const ctx = setup('UTC', start);
    const id = await insertNode(store, { guestVisible: true });
    await simulate(
      ctx,
      id,
      start + 2 * 3_600_000 + 120_000,
      (t) => t < start + 3_600_000 + 30 * 60_000,
    );
    const day = await ctx.uptime.day({ admin: true }, String(id), '2026-11-20');
    expect(day.hours[10]).toBe(100);
    expect(day.observedMs[10]).toBe(3_600_000);
    // 11:00–11:30 online, then silent: the last report covers 17 s more.
    expect(day.hours[11]).toBeCloseTo((100 * (30 * 60_000 + T - 3000)) / 3_600_000, 6);
    expect(day.hours[12]).toBe(0);
    expect(day.observedMs[12]).toBe(60_000);
    expect(day.hours[13]).toBeNull();
    expect(day.observedMs[9]).toBe(0);
  });

  it('leaves minutes before the process started and unfinalised minutes unknown', async () => {
    const start = Date.UTC(2026, 10, 20, 10, 0, 30);
    const ctx = setup('UTC', start);
    const id = await insertNode(store);
    ctx.uptime.recordReceipt(id, start - 20_000);
    ctx.clock.set(Date.UTC(2026, 10, 20, 10, 2, 5));
    expect(await ctx.uptime.finalise()).toBe(0);
    ctx.clock.set(Date.UTC(2026, 10, 20, 10, 2, 6));
    expect(await ctx.uptime.finalise()).toBe(1);
    const rows = store.raw.prepare('SELECT minute, observed_ms FROM uptime_minute').all();
    expect(rows).toEqual([{ minute: Date.UTC(2026, 10, 20, 10, 1), observed_ms: 60_000 }]);
  });

  it('is idempotent: finalising again writes nothing twice', async () => {
    const start = Date.UTC(2026, 10, 20, 10, 0, 0);
    const ctx = setup('UTC', start);
    const id = await insertNode(store);
    await simulate(ctx, id, start + 5 * 60_000 + 7000, () => true);
    const before = await ctx.uptime.day({ admin: true }, String(id), '2026-11-20');
    await store.uptime.saveMinutes([
      {
        nodeId: id,
        minute: start + 60_000,
        onlineMs: 1,
        observedMs: 1,
        reports: 1,
        hourStart: start,
        day: '2026-11-20',
      },
    ]);
    const fresh = new UptimeService(store.uptime, ctx.settings, ctx.clock, 'UTC', T);
    await fresh.load();
    expect(await fresh.finalise()).toBe(0);
    expect(await ctx.uptime.day({ admin: true }, String(id), '2026-11-20')).toEqual(before);
  });

  it('skips the repeated hour nowhere and adds both on a fall-back day (America/New_York)', async () => {
    // 2026-11-01: clocks go from 01:59 EDT back to 01:00 EST.
    const zone = 'America/New_York';
    const start = Date.UTC(2026, 10, 1, 4, 0, 0); // 00:00 EDT
    const ctx = setup(zone, start);
    const id = await insertNode(store);
    await simulate(ctx, id, Date.UTC(2026, 10, 1, 9, 2, 0), () => true, 30_000);
    const day = await ctx.uptime.day({ admin: true }, String(id), '2026-11-01');
    expect(day.observedMs[1]).toBe(2 * 3_600_000);
    expect(day.observedMs[0]).toBe(3_600_000);
    expect(day.observedMs[2]).toBe(3_600_000);
    expect(day.hours[1]).toBeGreaterThan(0);
  });

  it('leaves the skipped hour unknown on a spring-forward day (America/New_York)', async () => {
    // 2026-03-08: clocks jump from 01:59 EST to 03:00 EDT.
    const zone = 'America/New_York';
    const start = Date.UTC(2026, 2, 8, 5, 0, 0); // 00:00 EST
    const ctx = setup(zone, start);
    const id = await insertNode(store);
    await simulate(ctx, id, Date.UTC(2026, 2, 8, 9, 2, 0), () => true, 30_000);
    const day = await ctx.uptime.day({ admin: true }, String(id), '2026-03-08');
    expect(day.hours[2]).toBeNull();
    expect(day.observedMs[2]).toBe(0);
    expect(day.observedMs[1]).toBe(3_600_000);
    expect(day.observedMs[3]).toBe(3_600_000);
    expect(day.observedMs[4]).toBe(3_600_000);
  });

  it('lists 45 local days oldest first, including today, each present', async () => {
    const start = Date.UTC(2026, 10, 21, 23, 30, 0);
    const ctx = setup('Asia/Tokyo', start);
    await insertNode(store, { guestVisible: true });
    const o = await ctx.uptime.overview({ admin: false });
    expect(o.enabled).toBe(true);
    expect(o.timezone).toBe('Asia/Tokyo');
    expect(o.generatedAt).toBe('2026-11-22T08:30:00.000+09:00');
    const days = o.nodes[0]?.days ?? [];
    expect(days).toHaveLength(45);
    expect(days.at(-1)?.date).toBe('2026-11-22');
    expect(days[0]?.date).toBe('2026-10-09');
    expect(days.every((d) => d.percent === null && d.observedMs === 0)).toBe(true);
  });
});
