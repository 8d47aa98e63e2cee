/** Minimal line logger; the agent has no dependencies, so no pino here. */
export interface AgentLog {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function consoleLog(
  debug: boolean,
  write = (line: string) => process.stderr.write(line),
): AgentLog {
  const line = (level: string) => (msg: string) => write(`nodeagent ${level}: ${msg}\n`);
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
