/** Theme package rules (reference §9.3): what a zip may hold and how big each part may be. */
const KiB = 1024;
const MiB = 1024 * KiB;

export const THEME_LIMITS = {
  /** The uploaded zip itself. */
  zipBytes: 20 * MiB,
  /** The whole multipart request (zip plus form overhead). */
  requestBytes: 21 * MiB,
  maxEntries: 32,
  fileBytes: 20 * MiB,
  totalBytes: 50 * MiB,
  manifestBytes: 64 * KiB,
  readmeBytes: 256 * KiB,
  cssBytes: 1 * MiB,
  cssDeclarations: 1024,
  cssNameBytes: 128,
  cssValueChars: 4096,
  previewMaxSide: 4096,
  /**
   * Zip-bomb guard beyond the reference: an entry may not expand more than this many times
   * its compressed size once it is larger than `ratioFloorBytes` (small files compress
   * arbitrarily well and are harmless).
   */
  maxRatio: 100,
  ratioFloorBytes: 64 * KiB,
} as const;

export const MANIFEST_FILE = 'theme.json';
export const TOKENS_FILE = 'tokens.css';
export const RECIPES_FILE = 'recipes.css';
export const PREVIEW_FILE = 'preview.png';
export const README_FILE = 'README.md';

/** The only file names a package may contain; anything else refuses the package. */
export const ALLOWED_FILES: ReadonlySet<string> = new Set([
  MANIFEST_FILE,
  TOKENS_FILE,
  RECIPES_FILE,
  PREVIEW_FILE,
  README_FILE,
]);
export const REQUIRED_FILES = [MANIFEST_FILE, TOKENS_FILE] as const;

/** macOS Finder adds these to zips it makes; they are skipped, not refused. */
export const IGNORED_PREFIX = '__MACOSX/';
