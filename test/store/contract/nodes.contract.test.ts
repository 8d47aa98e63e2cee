import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type EngineStore } from '../engines.js';

describe.each(ENGINES)('nodes repo on $name', ({ open }) => {
  let store: EngineStore;
  let defaultGroup: number;
  beforeEach(async () => {
    store = await open();
    defaultGroup = await store.groups.ensureNamed('default', 0);
  });
  afterEach(async () => store.close());

  async function create(hash: string): Promise<number> {
    const res = await store.nodes.create(
      { name: 'Untitled', secretHash: hash, secretEnc: 'enc' },
      1,
    );
    if (!res.ok) throw new Error('create failed');
    return res.id;
  }

  it('creates nodes with defaults, after every other node, in the default group', async () => {
    const a = await create('ha');
    const b = await create('hb');
    const row = await store.nodes.get(b);
    expect(row).toMatchObject({
      name: 'Untitled',
      hostname: 'Untitled',
      ip: null,
      isGuestVisible: false,
      trafficP95Enabled: false,
      trafficCycleMode: 'calendar_month',
      trafficBillingStartDay: 1,
      trafficBillingAnchorDate: '',
      trafficBillingTimezone: '',
      trafficDirectionMode: 'default',
      displayOrder: 2,
      tagsJson: '[]',
      agentVersion: 'unknown',
      groupIds: [defaultGroup],
    });
    expect((await store.nodes.list()).map((n) => n.id)).toEqual([b, a]);
    expect(await store.nodes.liveSecretHashes()).toEqual([
      { id: a, secretHash: 'ha' },
      { id: b, secretHash: 'hb' },
    ]);
  });

  it('refuses a secret digest a live node already owns', async () => {
    await create('same');
    expect(
      await store.nodes.create({ name: 'Untitled', secretHash: 'same', secretEnc: 'e' }, 2),
    ).toEqual({ ok: false, reason: 'duplicate_secret' });
  });

  it('applies a patch with memberships in full, or nothing', async () => {
    const a = await create('ha');
    const b = await create('hb');
    const g = await store.groups.create('g', '', 1);
    expect(await store.nodes.update(a, { name: 'x', groupIds: [g, 999] }, 2)).toBe('unknown_group');
    expect(await store.nodes.update(a, { name: 'x', secret: { hash: 'hb', enc: 'e' } }, 2)).toBe(
      'duplicate_secret',
    );
    expect((await store.nodes.get(a))?.name).toBe('Untitled');
    expect(
      await store.nodes.update(
        a,
        { name: 'x', groupIds: [g], tagsJson: '["t"]', secret: { hash: 'ha2', enc: 'e2' } },
        3,
      ),
    ).toBe('ok');
    expect(await store.nodes.get(a)).toMatchObject({
      name: 'x',
      groupIds: [g],
      tagsJson: '["t"]',
      secretEnc: 'e2',
    });
    expect(await store.nodes.update(a, { groupIds: [] }, 4)).toBe('ok');
    expect((await store.nodes.get(a))?.groupIds).toEqual([]);
    expect(await store.nodes.update(999, { name: 'y' }, 4)).toBe('not_found');
    expect((await store.nodes.get(b))?.groupIds).toEqual([defaultGroup]);
  });

  it('toggles p95 on all ids or none', async () => {
    const a = await create('ha');
    const b = await create('hb');
    await store.nodes.softDelete(b, 2);
    expect(await store.nodes.setTrafficP95([a, b], true, 3)).toBe(false);
    expect((await store.nodes.get(a))?.trafficP95Enabled).toBe(false);
    expect(await store.nodes.setTrafficP95([a], true, 3)).toBe(true);
    expect((await store.nodes.get(a))?.trafficP95Enabled).toBe(true);
  });

  it('reorders only when the list names every live node', async () => {
    const a = await create('ha');
    const b = await create('hb');
    const c = await create('hc');
    expect(await store.nodes.setDisplayOrder([a, b], 2)).toBe('incomplete');
    expect(await store.nodes.setDisplayOrder([a, b, c, 99], 2)).toBe('missing');
    expect(await store.nodes.setDisplayOrder([a, c, b], 2)).toBe('ok');
    expect((await store.nodes.list()).map((n) => [n.id, n.displayOrder])).toEqual([
      [a, 3],
      [c, 2],
      [b, 1],
    ]);
  });

  it('soft-deletes: frees the secret, drops memberships, hides the node', async () => {
    const a = await create('ha');
    expect(await store.nodes.softDelete(a, 2)).toBe(true);
    expect(await store.nodes.softDelete(a, 3)).toBe(false);
    expect(await store.nodes.get(a)).toBeUndefined();
    expect(await store.nodes.list()).toEqual([]);
    expect(await store.nodes.liveSecretHashes()).toEqual([]);
    expect(await store.nodes.update(a, { name: 'z' }, 4)).toBe('not_found');
    const again = await create('ha');
    expect(again).not.toBe(a);
    expect((await store.groups.list())[0]?.nodeCount).toBe(1);
  });
});
