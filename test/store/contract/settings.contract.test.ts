import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type EngineStore } from '../engines.js';

describe.each(ENGINES)('settings repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('returns undefined for a key never stored', async () => {
    expect(await store.settings.get('nope')).toBeUndefined();
  });

  it('stores, overwrites and reads many keys', async () => {
    await store.settings.setMany(
      [
        ['a', '1'],
        ['b', '"x"'],
      ],
      10,
    );
    await store.settings.setMany([['a', '2']], 20);
    expect(await store.settings.get('a')).toBe('2');
    const many = await store.settings.getMany(['a', 'b', 'c']);
    expect(Object.fromEntries(many)).toEqual({ a: '2', b: '"x"' });
    expect((await store.settings.getMany([])).size).toBe(0);
  });

  it('claims a key once: the first value stays, later claims get it back', async () => {
    expect(await store.settings.claim('k', '"first"', 10)).toBe('"first"');
    expect(await store.settings.claim('k', '"second"', 20)).toBe('"first"');
    expect(await store.settings.get('k')).toBe('"first"');
    await store.settings.setMany([['k', '"set"']], 30);
    expect(await store.settings.claim('k', '"third"', 40)).toBe('"set"');
  });
});
