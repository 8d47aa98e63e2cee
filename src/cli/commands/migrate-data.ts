import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { systemClock } from '../../platform/clock.js';
import { connectPostgres } from '../../store/postgres/open.js';
import { migratePostgres } from '../../store/postgres/migrate.js';
import { redactUrl } from '../../store/postgres/pool.js';
import { OpenLogReaders } from '../../store/sqlite/open-logs.js';
import {
  copySqliteToPostgres,
  MigrateDataError,
  type CopyProgress,
} from '../../store/postgres/copy-from-sqlite.js';

export interface MigrateDataOptions {
  from: string;
  to: string;
}

/** Prints a table's progress at its start, every tenth of it, and at its end. */
function progressPrinter(out: (line: string) => void): (p: CopyProgress) => void {
  let shown = -1;
  return ({ table, copied, total }) => {
    const tenth = total === 0 ? 10 : Math.floor((copied * 10) / total);
    if (copied === 0) shown = -1;
    if (tenth === shown) return;
    shown = tenth;
    out(`  ${table}: ${copied}/${total} rows\n`);
  };
}

/** Records a crashed run left in the open-block logs, which only a `dash serve` start seals. */
function unsealedRecords(dbPath: string): number {
  const logs = new OpenLogReaders(dbPath);
  try {
    return logs.size().records;
  } finally {
    logs.close();
  }
}

/**
 * `dash migrate-data --from sqlite:FILE --to postgres://…`: copies a stopped SQLite install
 * into an empty PostgreSQL database, printing progress and each table's verified row count.
 * Exit code 1 when anything is refused or fails; PostgreSQL is then left as it was.
 */
export async function migrateDataCommand(opts: MigrateDataOptions): Promise<void> {
  const fail = (message: string) => {
    process.stderr.write(`dash migrate-data: ${message}\n`);
    process.exitCode = 1;
  };
  const path = resolve(opts.from.replace(/^sqlite:(\/\/)?/, ''));
  if (!/^postgres(ql)?:\/\//.test(opts.to)) return fail('--to must be a postgres:// URL');
  if (!existsSync(path)) return fail(`no SQLite database at ${path}`);
  const unsealed = unsealedRecords(path);
  if (unsealed > 0) {
    return fail(
      `${path} has ${unsealed} records in its open-block logs (${path}-open-*) not yet sealed ` +
        'into the database, left by a run that did not stop cleanly; start `dash serve` on it ' +
        'once and stop it (a start seals them), then run this again',
    );
  }
  const source = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const pool = await connectPostgres(opts.to, { max: 2 });
    try {
      const out = (line: string) => process.stdout.write(line);
      out(`migrating schema of ${redactUrl(opts.to)}\n`);
      await migratePostgres(pool, systemClock.now());
      out(`copying ${path}\n`);
      const results = await copySqliteToPostgres(source, pool, progressPrinter(out));
      out('verified row counts (SQLite → PostgreSQL):\n');
      for (const r of results) out(`  ${r.table}: ${r.source} → ${r.target} ok\n`);
      const rows = results.reduce((n, r) => n + r.target, 0);
      out(`done: ${results.length} tables, ${rows} rows\n`);
    } finally {
      await pool.end();
    }
  } catch (err) {
    if (err instanceof MigrateDataError) return fail(err.message);
    throw err;
  } finally {
    source.close();
  }
}
