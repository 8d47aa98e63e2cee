import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewTrafficAdjustment } from '../../../src/store/ports.js';
import { ENGINES, type EngineStore } from '../engines.js';

const C1 = Date.UTC(2026, 9, 1);
const C2 = Date.UTC(2026, 10, 1);

const bill = (over: Partial<NewTrafficAdjustment> = {}): NewTrafficAdjustment => ({
  nodeId: 1,
  iface: 'eth0',
  cycleStart: C1,
  cycleEnd: C2,
  direction: 'total',
  billedBytes: 1000,
  rawBytes: 900,
  note: 'invoice',
  createdAt: 10,
  ...over,
});

describe.each(ENGINES)('traffic adjustments repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('records bills; a newer bill for the same cycle supersedes the one in force', async () => {
    const a = await store.trafficAdjustments.create(bill());
    expect(a).toMatchObject({ nodeId: 1, billedBytes: 1000, revokedAt: null, supersededBy: null });
    const b = await store.trafficAdjustments.create(bill({ billedBytes: 2000, createdAt: 20 }));
    expect(await store.trafficAdjustments.get(1, a.id)).toMatchObject({
      revokedAt: 20,
      supersededBy: b.id,
    });
    const other = await store.trafficAdjustments.create(
      bill({ cycleStart: C2, cycleEnd: C2 + 1, createdAt: 30 }),
    );
    expect((await store.trafficAdjustments.active(1, 'eth0')).map((r) => r.id)).toEqual([
      other.id,
      b.id,
    ]);
    expect((await store.trafficAdjustments.list(1)).map((r) => r.id)).toEqual([
      other.id,
      b.id,
      a.id,
    ]);
    expect(await store.trafficAdjustments.list(1, 'eth1')).toEqual([]);
    expect(await store.trafficAdjustments.get(2, a.id)).toBeUndefined();
  });

  it('revokes only a record in force, of its own node', async () => {
    const a = await store.trafficAdjustments.create(bill());
    expect(await store.trafficAdjustments.revoke(2, a.id, 50)).toBeUndefined();
    expect(await store.trafficAdjustments.revoke(1, a.id, 50)).toMatchObject({
      id: a.id,
      revokedAt: 50,
    });
    expect(await store.trafficAdjustments.revoke(1, a.id, 60)).toBeUndefined();
    expect(await store.trafficAdjustments.active(1, 'eth0')).toEqual([]);
  });
});
