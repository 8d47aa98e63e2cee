import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { routeTable } from '../../../src/http/route-table.js';
import type { RouteDef } from '../../../src/http/route-def.js';
import { openApiPath, type OpenApiDocument } from '../../../src/http/openapi/document.js';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders, sharedCredentials } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { agentStatic } from '../../support/agent-static.js';
import { OpenApiChecker } from '../../support/openapi-check.js';

let t: TestApp;
let routes: RouteDef[];
let doc: OpenApiDocument;
let checker: OpenApiChecker;
let admin: Record<string, string>;
const json = { 'content-type': 'application/json' };

const concrete = (path: string, id: number) => path.replace(/:[A-Za-z_]+/g, String(id));

beforeAll(async () => {
  t = await buildTestApp();
  routes = routeTable(t.deps);
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json<OpenApiDocument>();
  checker = new OpenApiChecker(doc);
  admin = await adminHeaders(t);
  // One node with a static and a runtime report, so list and detail routes have data.
  await t.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin });
  const [node] = (
    await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
  ).json<Array<{ secret: string }>>();
  const nodeHeaders = { ...json, 'x-node-secret': node!.secret };
  const s = await t.app.inject({
    method: 'POST',
    url: '/api/node/static',
    headers: nodeHeaders,
    payload: JSON.stringify(agentStatic()),
  });
  expect(s.statusCode).toBe(200);
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: nodeHeaders,
    payload: JSON.stringify(agentReport()),
  });
  expect(r.statusCode).toBe(200);
});
afterAll(async () => t.close());

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route of the table, with its aliases, auth and error codes', () => {
    for (const r of routes) {
      for (const path of [r.path, ...(r.aliases ?? [])]) {
        const op = doc.paths[openApiPath(path)]?.[r.method.toLowerCase()];
        expect(op, `${r.method} ${path}`).toBeDefined();
        expect(op!['x-dash-auth']).toBe(r.auth);
        for (const code of r.errors ?? []) expect(op!['x-dash-error-codes']).toContain(code);
      }
    }
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item));
    const expected = routes.reduce((n, r) => n + 1 + (r.aliases?.length ?? 0), 0);
    expect(operations).toHaveLength(expected);
    expect(doc.paths['/api/openapi.json']?.get).toBeDefined();
  });

  it('describes auth, parameters and bodies from the route definitions', () => {
    const list = doc.paths['/api/admin/nodes/']!.get!;
    expect(list.security).toEqual([{ bearerAuth: [] }]);
    expect(list.responses['401']).toBeDefined();
    const update = doc.paths['/api/admin/nodes/{id}']!.patch!;
    expect(update.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
    expect(update['x-dash-error-codes']).toEqual(
      expect.arrayContaining(['invalid_id', 'not_found', 'unsupported_media_type']),
    );
    expect(update.requestBody).toBeDefined();
    const metrics = doc.paths['/api/node/metrics']!.post!;
    expect(metrics.security).toEqual([{ nodeSecret: [] }]);
    expect(doc.paths['/api/version/']!.get!.responses['200']!.content).toBeDefined();
  });

  it('answers no-store JSON and the same document every time', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(doc);
  });
});

describe('GET /api/docs', () => {
  it('is a readable HTML page of every path with no script and no inline style', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    for (const path of Object.keys(doc.paths)) expect(res.body).toContain(path);
    expect(res.body).toContain('href="/api/openapi.json"');
  });
});

describe('answers match the document', () => {
  async function sweep(withCredentials: boolean): Promise<string[]> {
    const problems: string[] = [];
    const creds = sharedCredentials(t);
    for (const r of routes) {
      for (const path of [r.path, ...(r.aliases ?? [])]) {
        // Id 1 is the default group and the first node; 999 exists nowhere.
        for (const id of [1, 999]) {
          const url = concrete(path, id);
          const headers = withCredentials ? ((await creds.for(r.auth)) ?? {}) : {};
          const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
          const res = await t.app.inject({
            method: r.method,
            url,
            headers: hasBody ? { ...headers, ...json } : headers,
            payload: hasBody && !r.multipart ? '{}' : undefined,
          });
          creds.after(r.method, url);
          problems.push(...checker.problems(r.method, url, res));
          if (!path.includes(':')) break;
        }
      }
    }
    return problems;
  }

  it('without credentials, for every route', async () => {
    expect(await sweep(false)).toEqual([]);
  });

  it('with credentials, for every route', async () => {
    expect(await sweep(true)).toEqual([]);
  });

  it('for successful reads with data', async () => {
    const urls = [
      '/api/version/',
      '/api/front/brand',
      '/api/front/groups',
      '/api/front/metrics',
      '/api/admin/nodes/',
      '/api/admin/groups/',
      '/api/admin/groups/map',
      '/api/admin/system/settings/',
      '/api/auth/sessions/',
      '/api/metrics/uptime',
      '/api/statistics/traffic/settings',
      '/api/statistics/access',
    ];
    const problems: string[] = [];
    // The sweeps end every session (DELETE /api/auth/sessions/): log in again.
    admin = await adminHeaders(t);
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url, headers: admin });
      expect(res.statusCode, url).toBe(200);
      problems.push(...checker.problems('GET', url, res));
    }
    expect(problems).toEqual([]);
  });

  it('catches an answer the document does not describe', () => {
    const problems = checker.problems('GET', '/api/version/', {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"version":1}',
    });
    expect(problems).toHaveLength(1);
    expect(
      checker.problems('GET', '/api/version/', { statusCode: 418, headers: {}, body: '' }),
    ).toHaveLength(1);
  });
});
