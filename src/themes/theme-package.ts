import { declarationCount, parseThemeCss, renderThemeCss } from '../domain/themes/css.js';
import {
  MANIFEST_FILE,
  PREVIEW_FILE,
  README_FILE,
  RECIPES_FILE,
  THEME_LIMITS,
  TOKENS_FILE,
} from '../domain/themes/limits.js';
import { parseManifest, type ThemeManifest } from '../domain/themes/manifest.js';
import { invalidPackage } from '../domain/themes/package-error.js';
import { checkPreviewPng } from './png.js';

/** A package that passed every rule: its manifest, its files and the CSS Dash will serve. */
export interface ValidTheme {
  manifest: ThemeManifest;
  files: Map<string, Buffer>;
  css: string;
}

function required(files: Map<string, Buffer>, name: string): Buffer {
  const bytes = files.get(name);
  if (!bytes) throw invalidPackage(`${name} is missing`);
  return bytes;
}

/**
 * Applies the package rules of reference §9.3 to extracted files (from an upload, a stored
 * theme or `dash theme pack`). `reservedIds` are the built-in theme ids.
 */
export function validateThemeFiles(
  files: Map<string, Buffer>,
  reservedIds: readonly string[],
): ValidTheme {
  const manifestBytes = required(files, MANIFEST_FILE);
  if (manifestBytes.length > THEME_LIMITS.manifestBytes) {
    throw invalidPackage('theme.json is larger than 64 KiB');
  }
  const manifest = parseManifest(manifestBytes, reservedIds);
  const tokens = parseThemeCss(required(files, TOKENS_FILE), TOKENS_FILE, manifest.id);
  if (declarationCount(tokens) === 0) {
    throw invalidPackage('tokens.css must declare at least one custom property');
  }
  const recipesBytes = files.get(RECIPES_FILE);
  const parts = [tokens];
  if (recipesBytes) parts.push(parseThemeCss(recipesBytes, RECIPES_FILE, manifest.id));
  const readme = files.get(README_FILE);
  if (readme) {
    if (readme.length > THEME_LIMITS.readmeBytes) {
      throw invalidPackage('README.md is larger than 256 KiB');
    }
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(readme);
    } catch {
      throw invalidPackage('README.md is not valid UTF-8');
    }
  }
  const preview = files.get(PREVIEW_FILE);
  if (preview) checkPreviewPng(preview);
  return { manifest, files, css: renderThemeCss(parts) };
}
