import { randomBytes } from 'node:crypto';
import { NodeSecretIndex } from '../../src/domain/nodes/secret-index.js';
import type { TestApp } from './build-app.js';

export interface SeedNodeOptions {
  name?: string;
  secret?: string;
  tags?: string[] | string;
  displayOrder?: number;
  guestVisible?: boolean;
}

/**
 * Inserts a live node the way node creation stores one (secret digest + encrypted secret) and
 * registers its secret, so node routes accept it. Node CRUD proper belongs to the admin API.
 */
export async function seedNode(
  t: Pick<TestApp, 'deps' | 'sql'>,
  opts: SeedNodeOptions = {},
): Promise<{ id: number; secret: string }> {
  const { deps } = t;
  const secret = opts.secret ?? randomBytes(12).toString('base64url');
  const now = deps.clock.now();
  const tags = typeof opts.tags === 'string' ? opts.tags : JSON.stringify(opts.tags ?? []);
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO nodes (name, secret_hash, secret_enc, tags, display_order, is_guest_visible,
       created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    opts.name ?? 'Untitled',
    NodeSecretIndex.hash(secret),
    deps.dataKey.encrypt(secret),
    tags,
    opts.displayOrder ?? 0,
    opts.guestVisible ? 1 : 0,
    now,
    now,
  );
  const id = row!.id;
  deps.nodeSecrets.set(id, secret);
  return { id, secret };
}
