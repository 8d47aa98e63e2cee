import { loadConfig } from '../../config/load.js';
import { createDeps } from '../../deps.js';
import { silentLogger } from '../../platform/logger.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `dash set-password`: reads the new admin password from stdin (first line) and stores its hash. */
export async function setPasswordCommand(): Promise<void> {
  if (process.stdin.isTTY)
    process.stderr.write('New admin password (end with Enter, then Ctrl-D): ');
  const input = await readStdin();
  const password = input.split(/\r?\n/)[0] ?? '';
  if (password.length < 8) {
    process.stderr.write('error: the password must be at least 8 characters\n');
    process.exitCode = 2;
    return;
  }
  const deps = await createDeps(loadConfig(), { log: silentLogger });
  try {
    await deps.adminPassword.set(password);
    process.stdout.write(
      'admin password updated; every existing session is revoked (a running Dash applies this when restarted)\n',
    );
  } finally {
    await deps.shutdown();
  }
}
