import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

/** exitCode stays null for a process ended by a signal. */
export const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** A real `dash serve` in a child process (tsx, no build needed) on a loopback port. */
export interface DashProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** Milliseconds from spawn to the first answered GET /api/version. */
  startupMs: number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startDash(
  home: string,
  env: Record<string, string> = {},
): Promise<DashProcess> {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
    env: {
      ...process.env,
      DASH_HOME: home,
      DASH_LISTEN: `127.0.0.1:${port}`,
      DASH_LOG_LEVEL: 'error',
      DASH_ADMIN_PASSWORD: 'reliability-test-password',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  const proc: DashProcess = {
    child,
    port,
    base,
    output: () => output,
    startupMs: 0,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (!exited(child)) child.kill(signal);
      await new Promise<void>((resolve) =>
        exited(child) ? resolve() : child.once('exit', () => resolve()),
      );
    },
  };
  for (let i = 0; i < 1200; i++) {
    if (exited(child)) throw new Error(`dash exited early: ${output}`);
    try {
      const res = await fetch(`${base}/api/version`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        proc.startupMs = Date.now() - started;
        return proc;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.kill();
  throw new Error(`dash did not start: ${output}`);
}
