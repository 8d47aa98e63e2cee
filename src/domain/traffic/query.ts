import { AppError } from '../../errors/app-error.js';
import type { Period } from './reads.js';

const IFACE_MAX = 64;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Reference §6.3: a required positive integer. */
export function serverId(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  const n = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw new AppError('invalid_request', 'server_id must be a positive integer');
  }
  return n;
}

/** Required, trimmed, at most 64 characters, no control characters, not `all`. */
export function ifaceName(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (name === '') throw new AppError('invalid_request', 'iface is required');
  if (name.toLowerCase() === 'all') {
    throw new AppError('invalid_request', 'iface must name one interface, not "all"');
  }
  if ([...name].length > IFACE_MAX || CONTROL.test(name)) {
    throw new AppError(
      'invalid_request',
      'iface must be at most 64 characters, no control characters',
    );
  }
  return name;
}

export function period(raw: string | undefined): Period {
  if (raw === undefined || raw === 'current') return 'current';
  if (raw === 'previous') return 'previous';
  throw new AppError('invalid_request', 'period must be current or previous');
}

/** Monthly history length: 1 to 24 cycles, default 6. */
export function months(raw: string | undefined): number {
  if (raw === undefined) return 6;
  const n = /^\d{1,2}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= 1 && n <= 24)) throw new AppError('invalid_request', 'months must be 1 to 24');
  return n;
}
