import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataKey } from '../../../src/platform/data-key.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { tempHome } from '../../support/build-app.js';

/** Database files and the data key hold secrets: only their owner may read them. */
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.runIf(process.platform !== 'win32')('file modes', () => {
  it('creates the database and its WAL files with mode 0600, whatever the umask', () => {
    const old = process.umask(0o022);
    try {
      const path = join(tempHome(), 'sub', 'dash.db');
      const store = openSqliteStore(path, 0);
      store.raw.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('x', '1', 0)").run();
      for (const f of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(f), f).toBe(0o600);
      void store.close();
    } finally {
      process.umask(old);
    }
  });

  it('tightens an existing database file readable by others', async () => {
    const path = join(tempHome(), 'dash.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const store = openSqliteStore(path, 0);
    expect(modeOf(path)).toBe(0o600);
    await store.close();
  });

  it('creates the data key with mode 0600 and tightens a looser one', () => {
    const path = join(tempHome(), 'keys', 'data.key');
    DataKey.fromFile(path);
    expect(modeOf(path)).toBe(0o600);
    chmodSync(path, 0o644);
    DataKey.fromFile(path);
    expect(modeOf(path)).toBe(0o600);
  });
});
