// @ts-check
/**
 * The layer table of docs/architecture.md as an ESLint rule: every relative import is resolved
 * to its file under src/, and the importing file's layer must list the target's layer. Own
 * layer is always allowed. Import cycles are checked apart (test/architecture/imports.test.ts).
 */
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Layer → the layers it may import. `store/ports` is the store's interface files
 * (`store/ports*.ts`, `store/channel-ports.ts`); `store/engine` is the rest of `store/`.
 * Keys of `types` may be imported for their types only.
 * @type {Record<string, { may: string[]; types?: string[] }>}
 */
export const LAYERS = {
  platform: { may: [] },
  errors: { may: [] },
  // platform/package-root.ts: where package.json is, from src/ as from the bundle in dist/.
  'version.ts': { may: ['platform'] },
  protocol: { may: ['errors'] },
  config: { may: ['platform'] },
  domain: { may: ['platform', 'errors', 'protocol', 'store/ports'] },
  'store/ports': { may: ['protocol', 'config', 'errors', 'platform'] },
  'store/engine': { may: ['store/ports', 'protocol', 'config', 'errors', 'platform'] },
  http: {
    may: ['domain', 'errors', 'platform', 'protocol', 'config', 'deploy', 'updater', 'version.ts'],
    types: ['deps.ts', 'store/ports', 'telemetry'],
  },
  'http/static': {
    may: ['http', 'deploy', 'domain', 'errors', 'platform', 'protocol'],
    types: ['deps.ts'],
  },
  deploy: { may: ['domain', 'platform', 'errors', 'protocol'] },
  themes: { may: ['domain', 'platform', 'errors', 'protocol'] },
  notify: { may: ['domain', 'platform', 'errors', 'protocol'] },
  updater: { may: ['platform', 'errors', 'config', 'version.ts'] },
  jobs: {
    may: ['domain', 'platform', 'errors', 'protocol'],
    types: ['store/ports', 'telemetry', 'updater'],
  },
  telemetry: {
    may: ['domain', 'platform', 'errors', 'protocol', 'config', 'workers'],
    types: ['jobs', 'store/ports'],
  },
  workers: {
    may: ['domain', 'platform', 'errors', 'protocol', 'config', 'store/ports', 'store/engine'],
  },
  // One database engine as the composition root sees it (store + its ingest pipeline + jobs).
  kits: {
    may: [
      'workers',
      'jobs',
      'store/ports',
      'store/engine',
      'domain',
      'platform',
      'errors',
      'protocol',
      'config',
    ],
  },
  // Bundled alone: only types of the wire model (erased from the bundle).
  agent: { may: [], types: ['protocol'] },
  'app.ts': { may: ['http', 'http/static'], types: ['deps.ts'] },
  // Composition roots and commands: anything.
  'deps.ts': { may: ['*'] },
  'deps-cluster.ts': { may: ['*'] },
  'main.ts': { may: ['*'] },
  cli: { may: ['*'] },
};

/** The layer of a path relative to src/ (posix separators), or undefined outside the table. */
export function layerOf(rel) {
  const parts = rel.split('/');
  const [top, second] = parts;
  if (parts.length === 1) return top;
  if (top === 'http' && second === 'static') return 'http/static';
  if (top === 'store') {
    return parts.length === 2 && /ports\.ts$|^ports-/.test(second ?? '')
      ? 'store/ports'
      : 'store/engine';
  }
  return top;
}

/** Whether `from` may import `to` (layers), types only or not. */
export function mayImport(from, to, typeOnly) {
  if (from === to) return true;
  const rule = LAYERS[from];
  if (!rule) return true;
  if (rule.may.includes('*') || rule.may.includes(to)) return true;
  return typeOnly && (rule.types ?? []).includes(to);
}

const SRC = resolve(import.meta.dirname, '..', 'src');

/** @param {any} node */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specs = node.specifiers ?? [];
  return (
    specs.length > 0 &&
    specs.every(
      (/** @type {any} */ s) =>
        s.type === 'ImportSpecifier' && (s.importKind === 'type' || s.exportKind === 'type'),
    )
  );
}

/** @type {import('eslint').Rule.RuleModule} */
export const downwardRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports point downward (docs/architecture.md, Layers)' },
    schema: [],
    messages: {
      upward:
        '{{from}} may not import {{to}}{{types}} (docs/architecture.md, Layers: imports point downward).',
    },
  },
  create(context) {
    const file = context.filename;
    const rel = relative(SRC, file);
    if (rel.startsWith('..')) return {};
    const from = layerOf(rel.split(sep).join('/'));
    if (!from) return {};
    /** @param {any} node */
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      if (target.startsWith('..')) return;
      const to = layerOf(target.split(sep).join('/'));
      if (!to || mayImport(from, to, isTypeOnly(node))) return;
      const types = (LAYERS[from]?.types ?? []).includes(to) ? ' (except types)' : '';
      context.report({ node, messageId: 'upward', data: { from, to, types } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};

export const layersPlugin = { rules: { downward: downwardRule } };
