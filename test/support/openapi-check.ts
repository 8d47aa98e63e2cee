import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { OpenApiDocument, OpenApiResponse } from '../../src/http/openapi/document.js';

interface InjectAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Checks that answers the server gave are described by its own OpenAPI document: the path
 * and method are listed, the status is declared, and a JSON body matches the declared schema.
 */
export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private readonly templates: Array<{ pattern: RegExp; key: string }>;

  constructor(private readonly doc: OpenApiDocument) {
    addFormats.default(this.ajv);
    this.templates = Object.keys(doc.paths).map((key) => ({
      key,
      pattern: new RegExp(
        '^' +
          key
            .split(/\{[^}]+\}/)
            .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]+') +
          '$',
      ),
    }));
  }

  /** Problems with one answer (empty when it matches the document). */
  problems(method: string, url: string, res: InjectAnswer): string[] {
    const path = url.split('?')[0]!;
    const where = `${method} ${path} → ${res.statusCode}`;
    const ops = this.templates
      .filter((t) => t.pattern.test(path))
      .map((t) => this.doc.paths[t.key]![method.toLowerCase()])
      .filter((op) => op !== undefined);
    if (ops.length === 0) return [`${where}: no operation in the document`];
    const status = String(res.statusCode);
    const responses = ops[0]!.responses;
    const declared: OpenApiResponse | undefined =
      responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!declared) return [`${where}: status not declared (${Object.keys(responses).join(', ')})`];
    const schema = declared.content?.['application/json']?.schema;
    if (schema === undefined || method === 'HEAD' || res.body === '') return [];
    const raw = res.headers['content-type'];
    const type = typeof raw === 'string' ? raw : '';
    if (!type.startsWith('application/json')) return [`${where}: content-type ${type}, not JSON`];
    let validate = this.compiled.get(schema as object);
    if (!validate) {
      validate = this.ajv.compile(schema as object);
      this.compiled.set(schema as object, validate);
    }
    if (validate(JSON.parse(res.body))) return [];
    return [`${where}: ${this.ajv.errorsText(validate.errors)} in ${res.body.slice(0, 300)}`];
  }
}
