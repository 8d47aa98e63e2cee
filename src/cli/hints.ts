import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

export interface HintContext {
  /** Working directory the command was started from. */
  cwd: string;
  /** The running entry script (process.argv[1]): dist/main.js or bin/dash. */
  entry: string | undefined;
  /** The resolved data directory. */
  home: string;
  /** DASH_DATABASE_URL as given in the environment, if any. */
  databaseUrl?: string | undefined;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A path as the user would type it from cwd: relative inside cwd, absolute outside. */
function fromCwd(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return path;
  return rel.includes('/') || rel.includes('\\') ? rel : `./${rel}`;
}

/**
 * The command line that runs `dash <args>` against this same instance from where the user
 * stands: the checkout's (or release's) bin/dash rather than a `dash` that is not on PATH, with
 * DASH_HOME (and DASH_DATABASE_URL) when they differ from what a bare run would use.
 */
export function dashCommand(ctx: HintContext, args: string): string {
  let launcher = 'dash';
  if (ctx.entry) {
    const entry = resolve(ctx.cwd, ctx.entry);
    const root = resolve(dirname(entry), '..');
    const bin = join(root, 'bin', 'dash');
    if (existsSync(bin)) launcher = fromCwd(ctx.cwd, bin);
  }
  const env: string[] = [];
  if (resolve(ctx.home) !== resolve(ctx.cwd, 'data')) {
    env.push(`DASH_HOME=${shellQuote(fromCwd(ctx.cwd, ctx.home))}`);
  }
  if (ctx.databaseUrl) env.push(`DASH_DATABASE_URL=${shellQuote(ctx.databaseUrl)}`);
  return [...env, launcher, args].join(' ');
}
