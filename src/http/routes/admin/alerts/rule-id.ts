import { pathId } from '../../../schemas/common.js';

/** A rule path id: positive for user rules; a negative id is a built-in (read-only). */
export function ruleId(raw: string): number {
  if (/^-[1-9]\d{0,8}$/.test(raw)) return Number(raw);
  return pathId(raw);
}
