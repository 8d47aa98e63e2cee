import { AppError } from '../../errors/app-error.js';
import { parseRfc3339 } from '../../platform/rfc3339.js';
import { cleanText } from '../common/text.js';

export const SILENCE_SCOPES = ['node', 'group', 'rule'] as const;
export type SilenceScope = (typeof SILENCE_SCOPES)[number];
/** A silence ends at most this far ahead. */
export const MAX_SILENCE_MS = 366 * 24 * 3600_000;
export const MAX_SILENCE_NOTE = 255;

/** Notifications of one node, every node of one group, or one rule are held until `endsAt`. */
export interface Silence {
  id: number;
  scope: SilenceScope;
  targetId: number;
  endsAt: number;
  note: string;
  createdAt: number;
}

export type SilenceWrite = Omit<Silence, 'id' | 'createdAt'>;

/** Body of POST /api/admin/alerts/silences. */
export interface SilenceInput {
  scope?: unknown;
  target_id?: unknown;
  ends_at?: unknown;
  note?: unknown;
}

const bad = (message: string): never => {
  throw new AppError('invalid_silence', message);
};

/**
 * Validates a new silence against the clock and the live targets; every failure is
 * `400 invalid_silence` with a message naming the field.
 */
export function parseSilence(
  input: SilenceInput,
  now: number,
  targetExists: (scope: SilenceScope, id: number) => boolean,
): SilenceWrite {
  const scope = SILENCE_SCOPES.includes(input.scope as SilenceScope)
    ? (input.scope as SilenceScope)
    : bad('scope must be node, group or rule');
  const targetId = input.target_id;
  if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId === 0)
    bad('target_id must be a non-zero integer');
  if (!targetExists(scope, targetId as number)) bad(`no such ${scope}: ${String(targetId)}`);
  const endsAt =
    typeof input.ends_at === 'string' ? parseRfc3339(input.ends_at) : bad('ends_at is required');
  if (endsAt === undefined) bad('ends_at must be an RFC 3339 time');
  if (endsAt! <= now) bad('ends_at must be in the future');
  if (endsAt! > now + MAX_SILENCE_MS) bad('ends_at must be within a year');
  let note = '';
  if (input.note !== undefined) {
    if (typeof input.note !== 'string') bad('note must be a string');
    note =
      cleanText(input.note as string, 0, MAX_SILENCE_NOTE) ??
      bad('note must be at most 255 characters without control characters');
  }
  return { scope, targetId: targetId as number, endsAt: endsAt!, note };
}

/** Whether a silence holds back a notification of (node, rule) at `at`. */
export function silenceMatches(
  s: Silence,
  target: { nodeId: number; ruleId: number; groupIds: readonly number[] },
  at: number,
): boolean {
  if (at >= s.endsAt) return false;
  switch (s.scope) {
    case 'node':
      return s.targetId === target.nodeId;
    case 'rule':
      return s.targetId === target.ruleId;
    case 'group':
      return target.groupIds.includes(s.targetId);
  }
}
