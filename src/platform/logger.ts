import pino, { type Logger } from 'pino';

export type { Logger };

/** Header and field names whose values must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-node-secret"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  'secret',
  '*.password',
  '*.secret',
  'access_token',
  'refresh_token',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined },
    destination,
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });
