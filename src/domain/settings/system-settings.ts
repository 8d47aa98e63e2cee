import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsRepo } from '../../store/ports.js';
import { isAcceptableLogoUrl } from './logo-url.js';
import { codePoints, hasControlChars } from '../common/text.js';

export const HISTORY_GUEST_MODES = ['disabled', 'by_node'] as const;
export const UPDATE_CHANNELS = ['release', 'prerelease'] as const;
export const UPDATE_MODES = ['manual', 'notify', 'auto'] as const;

export interface SystemSettings {
  history_guest_access_mode: (typeof HISTORY_GUEST_MODES)[number];
  dash_update_channel: (typeof UPDATE_CHANNELS)[number];
  dash_update_mode: (typeof UPDATE_MODES)[number];
  logo_url: string;
  page_title: string;
  topbar_text: string;
  uptime_guest_visible: boolean;
  uptime_warning_sla: number;
  uptime_error_sla: number;
}

export const DEFAULT_SETTINGS: SystemSettings = {
  history_guest_access_mode: 'disabled',
  dash_update_channel: 'release',
  dash_update_mode: 'manual',
  logo_url: '/brandlogo.svg',
  page_title: 'Dash Monitor',
  topbar_text: 'Dash',
  uptime_guest_visible: true,
  uptime_warning_sla: 99,
  uptime_error_sla: 95,
};

const FIELDS = Object.keys(DEFAULT_SETTINGS) as Array<keyof SystemSettings>;
/** The six fields PUT must carry; the uptime fields may be omitted or null. */
export const PUT_REQUIRED: ReadonlyArray<keyof SystemSettings> = FIELDS.slice(0, 6);
const UPTIME_FIELDS = new Set<keyof SystemSettings>([
  'uptime_guest_visible',
  'uptime_warning_sla',
  'uptime_error_sla',
]);
const KEY_PREFIX = 'system.';

function invalid(field: string, why: string): never {
  throw new AppError('invalid_fields', `${field}: ${why}`);
}

function oneOf<T extends string>(field: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    invalid(field, `must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function text(field: 'page_title' | 'topbar_text', v: unknown, max: number): string {
  if (typeof v !== 'string') invalid(field, 'must be a string');
  const t = v.trim();
  if (t === '') return DEFAULT_SETTINGS[field];
  if (codePoints(t) > max) invalid(field, `must be at most ${max} characters`);
  if (hasControlChars(t)) invalid(field, 'must not contain control characters');
  return t;
}

function logo(v: unknown): string {
  if (typeof v !== 'string') invalid('logo_url', 'must be a string');
  const t = v.trim();
  if (t === '') return DEFAULT_SETTINGS.logo_url;
  if (!isAcceptableLogoUrl(t)) {
    invalid('logo_url', 'must be a same-origin path, an https URL or a base64 image data URL');
  }
  return t;
}

function sla(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100)
    invalid(field, 'must be a number from 0 to 100');
  return v;
}

/** Validates one supplied field; returns the normalised value. */
function normalise(field: keyof SystemSettings, v: unknown): SystemSettings[keyof SystemSettings] {
  switch (field) {
    case 'history_guest_access_mode':
      return oneOf(field, v, HISTORY_GUEST_MODES);
    case 'dash_update_channel':
      return oneOf(field, v, UPDATE_CHANNELS);
    case 'dash_update_mode':
      return oneOf(field, v, UPDATE_MODES);
    case 'logo_url':
      return logo(v);
    case 'page_title':
      return text(field, v, 120);
    case 'topbar_text':
      return text(field, v, 64);
    case 'uptime_guest_visible':
      if (typeof v !== 'boolean') invalid(field, 'must be true or false');
      return v;
    case 'uptime_warning_sla':
    case 'uptime_error_sla':
      return sla(field, v);
  }
}

/**
 * Presentation and access settings (spec §2.10). Held in memory after the first read; every
 * write validates the whole update first and stores it in one transaction, so an invalid update
 * changes nothing.
 */
export class SystemSettingsService {
  private cache: SystemSettings | undefined;
  private readonly saved: Array<() => void> = [];

  constructor(
    private readonly repo: SettingsRepo,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<SystemSettings> {
    if (this.cache) return this.cache;
    const stored = await this.repo.getMany(FIELDS.map((f) => KEY_PREFIX + f));
    const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const f of FIELDS) {
      const raw = stored.get(KEY_PREFIX + f);
      if (raw !== undefined) out[f] = JSON.parse(raw) as unknown;
    }
    this.cache = out as unknown as SystemSettings;
    return this.cache;
  }

  /** Told after every stored change (several instances: the others drop their copy). */
  onSaved(listener: () => void): void {
    this.saved.push(listener);
  }

  /** Drops the copy held here; the next read comes from the store (changed elsewhere). */
  forget(): void {
    this.cache = undefined;
  }

  async patch(body: Record<string, unknown>): Promise<void> {
    const supplied = FIELDS.filter((f) => Object.prototype.hasOwnProperty.call(body, f));
    if (supplied.length === 0) throw new AppError('no_fields');
    await this.apply(body, supplied);
  }

  async replace(body: Record<string, unknown>): Promise<void> {
    const missing = PUT_REQUIRED.filter((f) => body[f] === undefined || body[f] === null);
    if (missing.length > 0) invalid(missing.join(', '), 'required');
    await this.apply(
      body,
      FIELDS.filter((f) => Object.prototype.hasOwnProperty.call(body, f)),
    );
  }

  private async apply(
    body: Record<string, unknown>,
    fields: Array<keyof SystemSettings>,
  ): Promise<void> {
    const current = await this.get();
    const next: Record<string, unknown> = { ...current };
    const changed: Array<keyof SystemSettings> = [];
    for (const f of fields) {
      const v = body[f];
      if (UPTIME_FIELDS.has(f) && (v === null || v === undefined)) continue;
      next[f] = normalise(f, v);
      changed.push(f);
    }
    const result = next as unknown as SystemSettings;
    if (!(result.uptime_error_sla < result.uptime_warning_sla)) {
      invalid('uptime_error_sla', 'must be lower than uptime_warning_sla');
    }
    await this.repo.setMany(
      changed.map((f) => [KEY_PREFIX + f, JSON.stringify(result[f])] as const),
      this.clock.now(),
    );
    this.cache = result;
    for (const listener of this.saved) listener();
  }
}
