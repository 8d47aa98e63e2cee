import type { TSchema } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../../errors/codes.js';
import { REFRESH_COOKIE } from '../auth-cookies.js';
import type { AuthMode, RouteDef } from '../route-def.js';
import { routeErrorCodes } from './route-errors.js';

/** The parts of an OpenAPI 3.1 document Dash writes; the rest of the format is not used. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  tags: Array<{ name: string }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, OpenApiResponse>;
  'x-dash-auth': AuthMode;
  'x-dash-error-codes': ErrorCode[];
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: unknown }>;
}

const SECURITY: Record<AuthMode, Array<Record<string, string[]>>> = {
  public: [],
  optional: [{}, { bearerAuth: [] }],
  admin: [{ bearerAuth: [] }],
  node: [{ nodeSecret: [] }],
  refresh: [{ refreshCookie: [], csrfToken: [] }],
};

const DESCRIPTION =
  'Generated from the route table of this Dash server. Every error answers ' +
  '`{"code": "...", "message": "..."}` with a code from docs/errors.md; each operation lists ' +
  'the codes it can answer in `x-dash-error-codes`. A method a path does not accept answers ' +
  '405 `method_not_allowed` with an `Allow` header; an unknown method answers 501 ' +
  '`not_implemented`.';

/** `/api/admin/nodes/:id` → `/api/admin/nodes/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function operationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '' && w !== 'api')
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('') + (path.endsWith('/') ? 'Slash' : '');
}

function tagOf(path: string): string {
  const [, , area = 'api'] = path.split('/');
  return area;
}

/** TypeBox schemas are JSON Schema 2020-12, the dialect of OpenAPI 3.1: copied as they are. */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema)) as unknown;
}

interface ObjectParts {
  properties?: Record<string, unknown>;
  required?: string[];
}

function objectParts(schema: unknown): ObjectParts | undefined {
  return schema as ObjectParts | undefined;
}

function parametersOf(def: RouteDef): unknown[] {
  const out: unknown[] = [];
  const paramSchema = objectParts(def.schema?.params);
  for (const m of def.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1]!;
    out.push({
      name,
      in: 'path',
      required: true,
      schema: paramSchema?.properties?.[name] ?? { type: 'string' },
    });
  }
  const query = objectParts(def.schema?.querystring);
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    out.push({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema });
  }
  return out;
}

function requestBodyOf(def: RouteDef): unknown {
  if (def.multipart) {
    return { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  }
  if (def.schema?.body) {
    return { required: true, content: { 'application/json': { schema: plain(def.schema.body) } } };
  }
  if (def.rawBody) {
    return {
      required: true,
      description: 'Decoded and checked by the server itself (see docs/api.md).',
      content: { 'application/json': { schema: {} } },
    };
  }
  return undefined;
}

function errorResponse(codes: ErrorCode[]): OpenApiResponse {
  return {
    description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].message}`).join('; '),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } },
        },
      },
    },
  };
}

function responsesOf(def: RouteDef, errors: ErrorCode[]): Record<string, OpenApiResponse> {
  const out: Record<string, OpenApiResponse> = {};
  const declared = def.schema?.response ?? {};
  for (const [status, schema] of Object.entries(declared)) {
    out[status] = {
      description: 'Success',
      content: { 'application/json': { schema: plain(schema) } },
    };
  }
  if (Object.keys(declared).length === 0) {
    out['2XX'] = { description: 'Success; the shape of this answer is not described yet.' };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = errorResponse(codes);
  }
  return out;
}

function operationOf(def: RouteDef, path: string): OpenApiOperation {
  const errors = routeErrorCodes(def);
  const op: OpenApiOperation = {
    operationId: operationId(def.method, path),
    summary: def.summary ?? `${def.method} ${def.path}`,
    tags: [tagOf(def.path)],
    security: SECURITY[def.auth],
    responses: responsesOf(def, errors),
    'x-dash-auth': def.auth,
    'x-dash-error-codes': errors,
  };
  const params = parametersOf(def);
  if (params.length > 0) op.parameters = params;
  const body = requestBodyOf(def);
  if (body !== undefined) op.requestBody = body;
  return op;
}

/** The OpenAPI 3.1 description of every route of the table (canonical paths and aliases). */
export function buildOpenApiDocument(
  routes: readonly RouteDef[],
  version: string,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const def of routes) {
    for (const path of [def.path, ...(def.aliases ?? [])]) {
      const key = openApiPath(path);
      const item = (paths[key] ??= {});
      item[def.method.toLowerCase()] = operationOf(def, path);
      tags.add(tagOf(def.path));
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Dash API', version, description: DESCRIPTION },
    paths,
    components: {
      schemas: {},
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from POST /api/auth/login',
        },
        nodeSecret: { type: 'apiKey', in: 'header', name: 'X-Node-Secret' },
        refreshCookie: { type: 'apiKey', in: 'cookie', name: REFRESH_COOKIE },
        csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
      },
    },
    tags: [...tags].sort().map((name) => ({ name })),
  };
}
