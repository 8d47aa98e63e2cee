/** Minimal line logger; the agent has no dependencies, so no pino here. */
export interface AgentLog {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/**
 * Writes one line to stderr. console.error, not process.stderr: in the standalone (Bun) build
 * the process.stderr stream loads Node's stream machinery, which keeps about 6 MiB more of the
 * agent resident for as long as it runs; console.error writes to the descriptor natively.
 */
const toStderr = (line: string): void => console.error('%s', line);

/** Lines `nodeagent <level>: <message>`, without the newline, go to `write`. */
export function consoleLog(debug: boolean, write: (line: string) => void = toStderr): AgentLog {
  const line = (level: string) => (msg: string) => write(`nodeagent ${level}: ${msg}`);
  return {
    debug: debug ? line('debug') : () => undefined,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
}

export const silentLog: AgentLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
