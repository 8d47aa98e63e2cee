import type { TestApp } from './build-app.js';

/**
 * Empties nodes and groups of a shared test app and restores the start state (the default
 * group as id 1), so admin tests can share one app instead of paying for a login each.
 */
export async function resetFleet(t: TestApp): Promise<void> {
  await t.sql.exec(`
    DELETE FROM node_groups;
    DELETE FROM nodes;
    DELETE FROM groups;
  `);
  await t.sql.resetIds(['nodes', 'groups']);
  t.deps.nodeSecrets.load([]);
  await t.deps.groups.ensureDefault();
}

/** Sets what a node's static report would set (the ingest path is not needed for admin tests). */
export async function setReported(
  t: TestApp,
  id: number,
  fields: {
    agent_version?: string;
    os?: string;
    platform?: string;
    arch?: string;
    ip?: string;
    hostname?: string;
  },
): Promise<void> {
  for (const [column, value] of Object.entries(fields)) {
    await t.sql.run(`UPDATE nodes SET ${column} = ? WHERE id = ?`, value, id);
  }
}
