import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Dash's package root (the folder holding package.json, bin/, templates/, web/dist): the
 * nearest one above this module. Found by looking rather than by a fixed `../..`, because the
 * same code runs from src/<folder>/ (tsx, tests) and bundled flat into dist/ (the build,
 * scripts/build-server.mjs), at different depths.
 */
export function findPackageRoot(from: string): string {
  for (let dir = from; ;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
