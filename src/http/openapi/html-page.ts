import type { OpenApiDocument, OpenApiOperation } from './document.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function schemaBlock(label: string, schema: unknown): string {
  if (schema === undefined) return '';
  return `<details><summary>${esc(label)}</summary><pre>${esc(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function contentSchema(x: unknown): unknown {
  const content = (x as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
  if (!content) return undefined;
  const first = Object.values(content)[0];
  return first?.schema;
}

function operationHtml(method: string, path: string, op: OpenApiOperation): string {
  const id = esc(op.operationId);
  const rows = Object.entries(op.responses)
    .map(([status, r]) => {
      const schema = contentSchema(r);
      const shape = status.startsWith('2') ? schemaBlock('shape', schema) : '';
      return `<tr><td>${esc(status)}</td><td>${esc(r.description)}${shape}</td></tr>`;
    })
    .join('');
  const params = (op.parameters ?? []) as Array<{ name: string; in: string; required: boolean }>;
  const paramList =
    params.length === 0
      ? ''
      : `<p>Parameters: ${params
          .map((p) => `<code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''})`)
          .join(', ')}</p>`;
  return (
    `<section id="${id}"><h3><code>${esc(method.toUpperCase())} ${esc(path)}</code></h3>` +
    `<p>${esc(op.summary)}</p><p>Auth: <code>${esc(op['x-dash-auth'])}</code></p>` +
    paramList +
    schemaBlock('request body', contentSchema(op.requestBody)) +
    `<table><thead><tr><th>Status</th><th>Answer</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/**
 * A readable page of the API description: plain HTML with no script and no inline style, so
 * it works under the strictest Content-Security-Policy.
 */
export function renderApiPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? 'api';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
    }
  }
  const sections = [...byTag]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([tag, ops]) => `<h2 id="tag-${esc(tag)}">${esc(tag)}</h2>${ops.join('')}`)
    .join('');
  const toc = [...byTag.keys()]
    .sort()
    .map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`)
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title></head><body>` +
    `<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>` +
    `<p>${esc(doc.info.description)}</p>` +
    '<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>' +
    `<nav><ul>${toc}</ul></nav>${sections}</body></html>`
  );
}
