import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DataKey } from '../../src/platform/data-key.js';
import { NodeSecretIndex } from '../../src/domain/nodes/secret-index.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';

/** Creates `count` nodes in a fresh Dash home the way node creation stores them; returns their secrets. */
export async function seedNodes(home: string, count: number): Promise<string[]> {
  const store = openSqliteStore(join(home, 'dash.db'), Date.now());
  const key = DataKey.fromFile(join(home, 'secrets', 'data.key'));
  const insert = store.raw.prepare(
    `INSERT INTO nodes (name, secret_hash, secret_enc, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const secrets: string[] = [];
  const now = Date.now();
  store.raw.transaction(() => {
    for (let i = 0; i < count; i++) {
      const secret = randomBytes(16).toString('base64url');
      insert.run(`bench-${i + 1}`, NodeSecretIndex.hash(secret), key.encrypt(secret), now, now);
      secrets.push(secret);
    }
  })();
  await store.close();
  return secrets;
}
