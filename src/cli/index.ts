import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load.js';
import { DataKeyMismatchError } from '../domain/cluster/shared-data-key.js';
import { DatabaseNotWritableError } from '../store/sqlite/connection.js';
import { PostgresConnectError } from '../store/postgres/open.js';
import { DASH_VERSION } from '../version.js';
import { serveCommand } from './commands/serve.js';
import { migrateCommand } from './commands/migrate.js';
import { migrateDataCommand } from './commands/migrate-data.js';
import { setPasswordCommand } from './commands/set-password.js';
import { themePackCommand } from './commands/theme-pack.js';
import { updateRecoverCommand, updateStatusCommand } from './commands/update.js';

export function buildCli(): Command {
  const program = new Command('dash')
    .description(
      'Dash: self-hosted server monitoring. Configuration: DASH_* variables or $DASH_HOME/config.yaml.',
    )
    .version(DASH_VERSION, '-v, --version', 'print the Dash version')
    .showHelpAfterError();
  program
    .command('serve', { isDefault: true })
    .description('start the HTTP server and background jobs in the foreground')
    .action(serveCommand);
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .action(migrateCommand);
  program
    .command('migrate-data')
    .description(
      'copy a stopped SQLite install into an empty PostgreSQL database, verifying counts',
    )
    .requiredOption('--from <sqlite>', 'source SQLite database: sqlite:/path/dash.db or a path')
    .requiredOption('--to <postgres>', 'target PostgreSQL URL: postgres://user@host/db')
    .action(migrateDataCommand);
  program
    .command('set-password')
    .description(
      'read a new admin password from standard input and store its hash in the existing database',
    )
    .option('--end-sessions', 'accepted for scripts; a new password always signs out every session')
    .action(setPasswordCommand);
  program
    .command('theme')
    .description('theme authoring tools')
    .command('pack')
    .argument('<dir>', 'folder holding theme.json, tokens.css and the optional files')
    .option('-o, --output <file>', 'zip to write (default <id>-<version>.zip here)')
    .description('check a theme folder with the upload rules and zip it for upload')
    .action(themePackCommand);
  const update = program.command('update').description('Dash self-update (docs/operations.md)');
  update
    .command('recover')
    .description('finish or roll back an update interrupted during the switch')
    .action(updateRecoverCommand);
  update
    .command('status')
    .description('print the last update job and whether self-update is available')
    .action(updateStatusCommand);
  return program;
}

/** Entry point: runs the CLI and turns configuration problems into one clear line. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`dash: configuration error: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof DatabaseNotWritableError) {
      process.stderr.write(`dash: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof DataKeyMismatchError) {
      process.stderr.write(`dash: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof PostgresConnectError) {
      process.stderr.write(`dash: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
