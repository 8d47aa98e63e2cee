import type { SystemSettings } from '../api/settings';
import { s } from '../i18n';

/** 0 <= error < warning <= 100 (spec §2.10); a message when broken, else null. */
export function slaProblem(warning: number, error: number): string | null {
  if (!Number.isFinite(warning) || !Number.isFinite(error)) {
    return s.errors.byCode.invalid_fields ?? s.errors.generic;
  }
  if (error < 0 || warning > 100 || error >= warning) return s.admin.settings.slaOrder;
  return null;
}

/** Changed fields only; null when nothing changed. */
export function settingsPatch(
  before: SystemSettings,
  after: SystemSettings,
): Partial<SystemSettings> | null {
  const patch: Partial<Record<keyof SystemSettings, unknown>> = {};
  for (const key of Object.keys(after) as (keyof SystemSettings)[]) {
    if (after[key] !== before[key]) patch[key] = after[key];
  }
  return Object.keys(patch).length > 0 ? (patch as Partial<SystemSettings>) : null;
}
