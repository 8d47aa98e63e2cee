import { AppError } from '../../errors/app-error.js';
import { codePoints, hasControlChars } from '../common/text.js';

export const MAX_TAGS = 32;
export const MAX_TAG_LENGTH = 64;

function isValidTag(tag: string): boolean {
  return codePoints(tag) <= MAX_TAG_LENGTH && !hasControlChars(tag);
}

function trimmedUnique(items: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    const tag = item.trim();
    if (tag !== '') seen.add(tag);
  }
  return [...seen];
}

/**
 * Tags sent in a node patch: an array of strings, each trimmed; empty and repeated items are
 * dropped first, then at most 32 may remain, each at most 64 characters without control
 * characters. `[]` clears the tags.
 */
export function tagsFromPatch(input: unknown): string[] {
  if (!Array.isArray(input) || !input.every((t) => typeof t === 'string')) {
    throw new AppError('invalid_tags', 'tags must be an array of strings');
  }
  const tags = trimmedUnique(input);
  if (tags.length > MAX_TAGS) throw new AppError('invalid_tags', 'at most 32 tags are allowed');
  if (!tags.every(isValidTag)) {
    throw new AppError(
      'invalid_tags',
      'each tag must be at most 64 characters without control characters',
    );
  }
  return tags;
}

/**
 * Tags as stored, cleaned for reading: invalid or excess items are dropped with a warning, and
 * text that is not a JSON array reads as no tags.
 */
export function tagsFromStore(json: string, warn: (message: string) => void): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    warn('stored tags are not valid JSON; reading them as []');
    return [];
  }
  if (!Array.isArray(parsed)) {
    warn('stored tags are not a JSON array; reading them as []');
    return [];
  }
  const strings = parsed.filter((t): t is string => typeof t === 'string');
  const cleaned = trimmedUnique(strings).filter(isValidTag);
  const kept = cleaned.slice(0, MAX_TAGS);
  const dropped = parsed.length - kept.length;
  if (dropped > 0) warn(`dropped ${dropped} invalid, repeated or excess stored tag(s)`);
  return kept;
}
