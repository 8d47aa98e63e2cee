import { ERROR_CODES } from './codes.js';

/** Renders docs/errors.md from the catalog (npm run docs:errors; a test checks it is current). */
export function renderErrorsDoc(): string {
  const rows = Object.entries(ERROR_CODES)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`);
  return [
    '# Error codes',
    '',
    'Every error Dash answers has the body `{"code": string, "message": string}`. Clients should key',
    'on `code`; `message` is human text and may change. This file is generated from',
    '`src/errors/codes.ts` by `npm run docs:errors`.',
    '',
    '| Status | Code | Default message |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
