// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { layersPlugin } from './scripts/eslint-layers.mjs';

const noWallClock = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Read time from the injected Clock (src/platform/clock.ts).',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Read time from the injected Clock (src/platform/clock.ts).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'web/**',
      'coverage/**',
      'bench/results/**',
      'release/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      curly: ['error', 'multi-line'],
      // Fastify hooks and store ports are async by contract even when an implementation is not.
      'require-await': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', ...noWallClock],
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/platform/clock.ts', 'src/agent/**', 'bench/**', 'test/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Imports point downward: the layer table of docs/architecture.md (scripts/eslint-layers.mjs).
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/downward': 'error' },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '**/http/**',
            '**/store/sqlite/**',
            '**/store/postgres/**',
            'fastify',
            'kysely',
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
