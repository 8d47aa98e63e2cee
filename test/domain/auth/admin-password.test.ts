import { describe, expect, it } from 'vitest';
import { AdminPassword } from '../../../src/domain/auth/admin-password.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { FakeClock } from '../../support/fake-clock.js';

const make = () => {
  const store = openSqliteStore(':memory:', 0);
  return { store, pw: new AdminPassword(store.settings, new FakeClock()) };
};

describe('admin password', () => {
  it('generates a strong password once when none is configured or stored', async () => {
    const { store, pw } = make();
    const first = await pw.ensure(undefined);
    expect(first.generated).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(await pw.verify(first.generated as string)).toBe(true);
    expect((await pw.ensure(undefined)).generated).toBeUndefined();
    const raw = await store.settings.get('auth.admin_password_hash');
    expect(raw).not.toContain(first.generated as string);
    await store.close();
  });

  it('uses an explicit password instead of generating one and replaces a different stored one', async () => {
    const { store, pw } = make();
    expect(await pw.ensure('explicit-pass-1')).toEqual({});
    expect(await pw.verify('explicit-pass-1')).toBe(true);
    await pw.ensure('explicit-pass-2');
    expect(await pw.verify('explicit-pass-1')).toBe(false);
    expect(await pw.verify('explicit-pass-2')).toBe(true);
    await store.close();
  });

  it('bumps the stored user version with every change, so sessions issued before end', async () => {
    const { store, pw } = make();
    const seen: number[] = [];
    pw.onChange(async (v) => void seen.push(v));
    await pw.ensure('explicit-pass-1');
    await pw.ensure('explicit-pass-1'); // unchanged: nothing revoked
    await pw.set('explicit-pass-2');
    expect(seen).toEqual([1, 2]);
    expect(await store.settings.get('auth.user_version')).toBe('2');
    await store.close();
  });
});
