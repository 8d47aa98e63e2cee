import { fileURLToPath } from 'node:url';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { downwardRule, layerOf, mayImport } from '../../scripts/eslint-layers.mjs';

const src = (rel: string) => fileURLToPath(new URL(`../../src/${rel}`, import.meta.url));

describe('the layers lint rule', () => {
  it('places files in their layer', () => {
    expect(layerOf('store/ports.ts')).toBe('store/ports');
    expect(layerOf('store/ports-alerts.ts')).toBe('store/ports');
    expect(layerOf('store/channel-ports.ts')).toBe('store/ports');
    expect(layerOf('store/sqlite/traffic.ts')).toBe('store/engine');
    expect(layerOf('http/static/spa.ts')).toBe('http/static');
    expect(layerOf('http/routes/node/metrics.ts')).toBe('http');
    expect(layerOf('deps.ts')).toBe('deps.ts');
  });

  it('lets imports point downward only', () => {
    expect(mayImport('domain', 'store/ports', false)).toBe(true);
    expect(mayImport('domain', 'store/engine', false)).toBe(false);
    expect(mayImport('store/engine', 'domain', true)).toBe(false);
    expect(mayImport('protocol', 'errors', false)).toBe(true);
    expect(mayImport('protocol', 'platform', false)).toBe(false);
    expect(mayImport('http', 'deps.ts', true)).toBe(true);
    expect(mayImport('http', 'deps.ts', false)).toBe(false);
    expect(mayImport('http', 'workers', false)).toBe(false);
    expect(mayImport('cli', 'workers', false)).toBe(true);
    expect(mayImport('agent', 'protocol', true)).toBe(true);
    expect(mayImport('agent', 'protocol', false)).toBe(false);
  });

  it('reports an upward import, and accepts a type-only one where the table allows it', () => {
    const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
    tester.run('layers/downward', downwardRule, {
      valid: [
        {
          filename: src('http/routes/x.ts'),
          code: "import type { AppDeps } from '../../deps.js';",
        },
        {
          filename: src('domain/ingest/x.ts'),
          code: "import { y } from '../../protocol/node-report.js';",
        },
        { filename: src('domain/ingest/x.ts'), code: "import { y } from './ingest-core.js';" },
      ],
      invalid: [
        {
          filename: src('http/routes/x.ts'),
          code: "import { buildDeps } from '../../deps.js';",
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: src('store/sqlite/x.ts'),
          code: "import type { X } from '../../domain/ingest/ingest-core.js';",
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: src('protocol/x.ts'),
          code: "export { y } from '../http/strict-json.js';",
          errors: [{ messageId: 'upward' }],
        },
      ],
    });
  });
});
