/**
 * PostgreSQL 0019 compresses the stored projection documents with lz4 instead of pglz: nothing
 * to do on SQLite, which does not compress them. The id exists so both engines name the same
 * schema state.
 */
export const up: readonly string[] = [];
