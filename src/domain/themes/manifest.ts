import { invalidPackage } from './package-error.js';

export type AdminShell = 'sidebar' | 'topbar';
export type AdminFrame = 'layered' | 'flat';
export type DashboardSummary = 'cards' | 'strip';
export type DashboardDensity = 'comfortable' | 'compact';

export interface ThemeSkin {
  admin: { shell: AdminShell; frame: AdminFrame };
  dashboard: { summary: DashboardSummary; density: DashboardDensity };
}

/** theme.json, validated (reference §9.3). */
export interface ThemeManifest {
  id: string;
  name: string;
  version: string;
  author: string;
  description: string;
  skin: ThemeSkin;
}

/** `default` means "Dash's own stylesheet"; it can be applied but never stored. */
export const DEFAULT_THEME_ID = 'default';

const ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

export function isThemeId(id: string): boolean {
  return ID_RE.test(id);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(obj: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      throw invalidPackage(`unknown field "${where}${key}" in theme.json`);
  }
}

function text(obj: Json, key: string, max: number, required: boolean, where = ''): string {
  const v = obj[key];
  if (v === undefined && !required) return '';
  if (typeof v !== 'string') throw invalidPackage(`theme.json ${where}${key} must be a string`);
  if (required && v.trim() === '') throw invalidPackage(`theme.json ${where}${key} is required`);
  if ([...v].length > max) {
    throw invalidPackage(`theme.json ${where}${key} is longer than ${max} characters`);
  }
  if (CONTROL_RE.test(v)) {
    throw invalidPackage(`theme.json ${where}${key} contains control characters`);
  }
  return v;
}

function oneOf<T extends string>(obj: Json, key: string, values: readonly T[], where: string): T {
  const v = obj[key];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw invalidPackage(`theme.json ${where}${key} must be one of ${values.join(', ')}`);
  }
  return v as T;
}

function section(obj: Json, key: string, keys: readonly string[], where: string): Json {
  const v = obj[key];
  if (!isObject(v)) throw invalidPackage(`theme.json ${where}${key} must be an object`);
  onlyKeys(v, keys, `${where}${key}.`);
  return v;
}

/** Parses theme.json strictly: one JSON object, known fields only, every rule checked. */
export function parseManifest(bytes: Uint8Array, reservedIds: readonly string[]): ThemeManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidPackage('theme.json is not valid UTF-8 JSON');
  }
  if (!isObject(raw)) throw invalidPackage('theme.json must be a JSON object');
  onlyKeys(raw, ['id', 'name', 'version', 'author', 'description', 'skin'], '');
  const id = raw.id;
  if (typeof id !== 'string' || !isThemeId(id)) {
    throw invalidPackage('theme.json id must match ^[a-z0-9][a-z0-9_-]{0,63}$');
  }
  if (id === DEFAULT_THEME_ID || reservedIds.includes(id)) {
    throw invalidPackage(`theme id "${id}" is reserved for a built-in theme`);
  }
  const skin = section(raw, 'skin', ['admin', 'dashboard'], '');
  const admin = section(skin, 'admin', ['shell', 'frame'], 'skin.');
  const dashboard = section(skin, 'dashboard', ['summary', 'density'], 'skin.');
  return {
    id,
    name: text(raw, 'name', 128, true),
    version: text(raw, 'version', 64, true),
    author: text(raw, 'author', 128, false),
    description: text(raw, 'description', 2000, false),
    skin: {
      admin: {
        shell: oneOf(admin, 'shell', ['sidebar', 'topbar'], 'skin.admin.'),
        frame: oneOf(admin, 'frame', ['layered', 'flat'], 'skin.admin.'),
      },
      dashboard: {
        summary: oneOf(dashboard, 'summary', ['cards', 'strip'], 'skin.dashboard.'),
        density: oneOf(dashboard, 'density', ['comfortable', 'compact'], 'skin.dashboard.'),
      },
    },
  };
}
