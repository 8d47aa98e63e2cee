/**
 * The live current projection shared by PostgreSQL instances (PostgreSQL 0017 creates the
 * unlogged `node_live`): nothing to create on SQLite, where one process keeps its live
 * projection in memory and rewrites node_current every 30-45 s. The id exists so both engines
 * name the same schema state.
 */
export const up: readonly string[] = [];
