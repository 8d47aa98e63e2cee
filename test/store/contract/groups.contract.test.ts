import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type EngineStore } from '../engines.js';

describe.each(ENGINES)('groups repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('creates, lists by id, renames and soft-deletes groups', async () => {
    const a = await store.groups.create('alpha', 'first', 1);
    const b = await store.groups.create('beta', '', 2);
    expect(await store.groups.update(a, { remark: 'changed' }, 3)).toBe(true);
    expect(await store.groups.list()).toEqual([
      { id: a, name: 'alpha', remark: 'changed', nodeCount: 0 },
      { id: b, name: 'beta', remark: '', nodeCount: 0 },
    ]);
    expect(await store.groups.softDelete(b, 4)).toBe(true);
    expect(await store.groups.softDelete(b, 5)).toBe(false);
    expect(await store.groups.update(b, { name: 'x' }, 6)).toBe(false);
    expect((await store.groups.list()).map((g) => g.id)).toEqual([a]);
  });

  it('counts live member nodes and drops memberships of a deleted group', async () => {
    const def = await store.groups.ensureNamed('default', 1);
    const n1 = await store.nodes.create({ name: 'Untitled', secretHash: 'h1', secretEnc: 'e1' }, 1);
    const n2 = await store.nodes.create({ name: 'Untitled', secretHash: 'h2', secretEnc: 'e2' }, 1);
    if (!n1.ok || !n2.ok) throw new Error('create failed');
    expect((await store.groups.list())[0]?.nodeCount).toBe(2);
    await store.nodes.softDelete(n2.id, 2);
    expect((await store.groups.list())[0]?.nodeCount).toBe(1);
    expect(await store.groups.softDelete(def, 3)).toBe(true);
    expect((await store.nodes.get(n1.id))?.groupIds).toEqual([]);
  });

  it('ensures a named group exists, re-activating a deleted one', async () => {
    const id = await store.groups.ensureNamed('default', 1);
    expect(await store.groups.ensureNamed('default', 2)).toBe(id);
    await store.groups.softDelete(id, 3);
    expect(await store.groups.ensureNamed('default', 4)).toBe(id);
    expect(await store.groups.list()).toEqual([{ id, name: 'default', remark: '', nodeCount: 0 }]);
  });
});
