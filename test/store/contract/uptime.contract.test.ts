import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UptimeMinuteRow } from '../../../src/store/ports.js';
import { ENGINES, type EngineStore } from '../engines.js';

const H = Date.UTC(2026, 10, 24, 10);
const M = 60_000;

const minute = (nodeId: number, at: number, reports = 20): UptimeMinuteRow => ({
  nodeId,
  minute: at,
  onlineMs: 60_000,
  observedMs: 60_000,
  reports,
  hourStart: Math.floor(at / 3_600_000) * 3_600_000,
  day: new Date(at).toISOString().slice(0, 10),
});

describe.each(ENGINES)('uptime repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('saves minutes once, adding them to their hour and day', async () => {
    await store.uptime.saveMinutes([minute(1, H), minute(1, H + M), minute(2, H)]);
    await store.uptime.saveMinutes([minute(1, H + M)]);
    expect(await store.uptime.lastMinute()).toBe(H + M);
    expect(await store.uptime.hours(1, H, H + 3_600_000)).toEqual([
      { hourStart: H, onlineMs: 120_000, observedMs: 120_000 },
    ]);
    const days = await store.uptime.days([1], '2026-11-24', '2026-11-24');
    expect([...days.keys()]).toEqual([1]);
    expect(days.get(1)?.get('2026-11-24')).toEqual({ onlineMs: 120_000, observedMs: 120_000 });
    expect(await store.uptime.days([], '2026-11-24', '2026-11-24')).toEqual(new Map());
  });

  it('counts reports per bucket from finalised minutes', async () => {
    await store.uptime.saveMinutes([
      minute(1, H, 20),
      minute(1, H + M, 19),
      minute(1, H + 5 * M, 3),
    ]);
    const counts = await store.uptime.reportCounts(1, H, H + 10 * M, 5 * M);
    expect(counts).toEqual(
      new Map([
        [H, 39],
        [H + 5 * M, 3],
      ]),
    );
  });

  it('lists live nodes with their report interval', async () => {
    const made = await store.nodes.create({ name: 'a', secretHash: 'h', secretEnc: 'e' }, 1);
    if (!made.ok) throw new Error('create failed');
    expect(await store.uptime.nodes()).toEqual([
      { id: made.id, guestVisible: false, intervalSec: 3 },
    ]);
    expect(await store.uptime.node(made.id)).toEqual({
      id: made.id,
      guestVisible: false,
      intervalSec: 3,
    });
    expect(await store.uptime.node(made.id + 1)).toBeUndefined();
  });

  it('prunes rows before the cut-offs until nothing is left', async () => {
    const old = H - 50 * 86_400_000;
    await store.uptime.saveMinutes([minute(1, old), minute(1, H)]);
    const oldDay = new Date(old).toISOString().slice(0, 10);
    const cut = H - 46 * 86_400_000;
    const cutDay = new Date(cut).toISOString().slice(0, 10);
    expect(await store.uptime.prune(cut, cut, cutDay, 500)).toBeGreaterThan(0);
    expect(await store.uptime.prune(cut, cut, cutDay, 500)).toBe(0);
    expect(await store.uptime.days([1], oldDay, '2026-11-24')).toEqual(
      new Map([[1, new Map([['2026-11-24', { onlineMs: 60_000, observedMs: 60_000 }]])]]),
    );
    expect(await store.uptime.reportCounts(1, old, old + M, M)).toEqual(new Map());
    expect(await store.uptime.lastMinute()).toBe(H);
  });
});
