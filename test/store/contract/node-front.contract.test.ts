import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type EngineStore } from '../engines.js';

describe.each(ENGINES)('node static and front repos on $name', ({ open }) => {
  let store: EngineStore;
  let id: number;
  beforeEach(async () => {
    store = await open();
    const made = await store.nodes.create({ name: 'Untitled', secretHash: 'h', secretEnc: 'e' }, 1);
    if (!made.ok) throw new Error('create failed');
    id = made.id;
  });
  afterEach(async () => store.close());

  const update = (hostname: string, ip: string | null) => ({
    hostname,
    os: 'linux',
    platform: 'debian',
    platformVersion: '12',
    kernelVersion: '6.1',
    arch: 'amd64',
    agentVersion: '1.0.0',
    intervalSec: 5,
    staticJson: '{"x":1}',
    ip,
  });

  it('names a placeholder-named node after its host, once, and keeps a chosen name', async () => {
    expect(await store.nodeStatic.staticJson(id)).toBeNull();
    expect(await store.nodeStatic.saveStatic(id, update('web-1', '192.0.2.1'), 2)).toBe(true);
    expect(await store.nodeStatic.saveStatic(id, update('web-2', null), 3)).toBe(true);
    expect(await store.nodeStatic.staticJson(id)).toBe('{"x":1}');
    expect(await store.nodes.get(id)).toMatchObject({
      name: 'web-1',
      hostname: 'web-2',
      ip: '192.0.2.1',
      platform: 'debian',
    });
    expect(await store.nodeStatic.saveStatic(id + 1, update('x', null), 4)).toBe(false);
    expect(await store.nodeStatic.staticJson(id + 1)).toBeUndefined();
  });

  it('lists live nodes for the front view, all or by id', async () => {
    await store.nodes.update(id, { isGuestVisible: true, tagsJson: '["a"]' }, 2);
    const rows = await store.front.liveNodes();
    expect(rows).toEqual([
      expect.objectContaining({ id, name: 'Untitled', tags: '["a"]', guestVisible: true }),
    ]);
    expect(await store.front.liveNodes([id])).toEqual(rows);
    expect(await store.front.liveNodes([])).toEqual([]);
    expect(await store.front.currentRows()).toEqual([]);
    await store.nodes.softDelete(id, 3);
    expect(await store.front.liveNodes()).toEqual([]);
  });
});
