import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALUE_MODULES, wireTypeFindings } from './web-wire-types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = join(ROOT, 'web/src/api');

/** A specifier of a file in web/src/api, as a repository path when it leaves the web app. */
function serverPathFrom(file: string) {
  return (specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const path = relative(ROOT, resolve(dirname(file), specifier)).replace(/\.js$/, '');
    return path.startsWith('web/') ? undefined : `${path}.ts`;
  };
}

const apiFiles = readdirSync(API)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => join(API, f));

describe('web wire types (one wire model per payload)', () => {
  it('flags a hand-copied payload, an inline payload shape and a value import (the check)', () => {
    const file = join(API, 'sample.ts');
    const text = [
      "import { TokenGrantSchema } from '../../../src/protocol/api/auth';",
      "import type { Brand } from '../../../src/protocol/api/front';",
      "import { CYCLE_MODES } from '../../../src/protocol/api/constants';",
      'export interface AdminNode { id: number; name: string }',
      'export type Group = { id: number };',
      "export const f = () => request<{ login_id: string }>('/x');",
      'export type Alias = Brand;',
      'export interface HistoryQuery { serverId: string }',
    ].join('\n');
    const found = wireTypeFindings(file, text, serverPathFrom(file));
    expect(found.map((f) => f.line)).toEqual([1, 4, 5, 6]);
    expect(found[0]?.problem).toContain('src/protocol/api/auth.ts');
  });

  it('web/src/api declares no payload shape of its own', () => {
    expect(apiFiles.length).toBeGreaterThan(10);
    const problems = apiFiles.flatMap((file) =>
      wireTypeFindings(file, readFileSync(file, 'utf8'), serverPathFrom(file)).map(
        (f) => `${relative(ROOT, file)}:${f.line} ${f.problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it('the server modules the web imports values from hold no schema code', () => {
    for (const path of VALUE_MODULES) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      expect(text, path).not.toMatch(/^import (?!type )/m);
    }
  });
});
