import { existsSync } from 'node:fs';
import { loadConfig } from '../../config/load.js';
import { createDeps } from '../../deps.js';
import { silentLogger } from '../../platform/logger.js';
import { AUTH_SYNC_INTERVAL_MS } from '../../jobs/auth-sync.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `dash set-password`: reads the new admin password from stdin (first line), ends every session,
 * and stores its hash in an existing database, never a new one: a wrong DASH_HOME would
 * otherwise create an empty database and "change" a password no running Dash uses.
 */
export async function setPasswordCommand(opts: { endSessions?: boolean } = {}): Promise<void> {
  const config = loadConfig();
  const db = config.database;
  if (db.kind === 'sqlite' && db.path !== ':memory:' && !existsSync(db.path)) {
    process.stderr.write(
      `error: no Dash database at ${db.path}; nothing was changed.\n` +
        `Set DASH_HOME to the data directory your Dash uses (make run uses ./data), ` +
        `or start Dash once first.\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (process.stdin.isTTY)
    process.stderr.write('New admin password (end with Enter, then Ctrl-D): ');
  const input = await readStdin();
  const password = input.split(/\r?\n/)[0] ?? '';
  if (password.length < 8) {
    process.stderr.write('error: the password must be at least 8 characters\n');
    process.exitCode = 2;
    return;
  }
  const deps = await createDeps(config, { log: silentLogger });
  const where = db.kind === 'sqlite' ? db.path : 'the configured database';
  try {
    await deps.adminPassword.set(password);
    // A new password always ends every session (AdminPassword bumps the user version with it);
    // `--end-sessions` is still accepted and changes nothing.
    void opts.endSessions;
    process.stdout.write(
      `admin password updated in ${where}; every session was ended ` +
        `(a running Dash signs them out within ${AUTH_SYNC_INTERVAL_MS / 1000} s)\n`,
    );
  } finally {
    await deps.shutdown();
  }
}
