import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { routeTable } from '../../src/http/route-table.js';
import { API_BODY_LIMIT, type RouteDef } from '../../src/http/route-def.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { parseRaw, rawRequest } from '../support/raw-http.js';
import { adminHeaders } from '../support/credentials.js';
import { seedNode } from '../support/seed-nodes.js';
import { changedTables, tableDigests } from '../support/db-snapshot.js';

/**
 * Property-based fuzzing of every JSON endpoint of the route table (issue 25): hostile bodies,
 * media types, encodings and path ids never get a 5xx or a crash, always get {code, message},
 * and a refused request leaves every stored row as it was.
 *
 * Reproduce a failure with the seed it prints: DASH_FUZZ_SEED=<seed> npx vitest run <this file>.
 * DASH_FUZZ_RUNS sets the runs per route (default 40; the soak run uses thousands).
 */
const RUNS = Number(process.env.DASH_FUZZ_RUNS ?? 40);
const SEED = Number(process.env.DASH_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestApp;
let routes: RouteDef[];
let admin: Record<string, string>;
let nodeSecret: string;
const tally = { requests: 0, fiveXx: 0, refused: 0, accepted: 0 };

beforeAll(async () => {
  t = await buildTestApp();
  routes = routeTable(t.deps).filter(
    (r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.multipart,
  );
  admin = await adminHeaders(t);
  nodeSecret = (await seedNode(t, { name: 'fuzzed' })).secret;
});
afterAll(async () => {
  // The soak command reads this line.
  console.log(
    `fuzz: seed=${SEED} runs/route=${RUNS} requests=${tally.requests} 5xx=${tally.fiveXx} ` +
      `refused=${tally.refused} accepted=${tally.accepted}`,
  );
  await t.close();
});

// ---------------------------------------------------------------------------------------------
// Hostile JSON text, built as text so that -0, 1e400 and 2^63 reach the parser verbatim.

const hostileNumbers = [
  '-0',
  '-0.0',
  '0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '2147483648',
  '-2147483649',
  '4294967296',
  '123456789012345678901234567890',
  '1E+2',
  // Not JSON at all:
  'NaN',
  'Infinity',
  '-Infinity',
  '01',
  '.5',
  '1.',
  '+1',
  '0x10',
];

const controlChars = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat([
  '\u007f',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u202e',
]);

const stringText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc
    .array(fc.constantFrom(...controlChars), { minLength: 1, maxLength: 8 })
    .map((cs) => JSON.stringify(`a${cs.join('')}b`)),
  // Raw control characters inside a string literal are not JSON.
  fc.constantFrom(...controlChars).map((c) => `"x${c}y"`),
  fc.constantFrom('"\\ud800"', '"\\udfff"', '"\\ud800\\u0041"', '"\\u0000"', '"\\x41"', '"\\'),
  fc.integer({ min: 256, max: 300_000 }).map((n) => `"${'x'.repeat(n)}"`),
  fc.constantFrom('""', '" "', '"session"', '"persistent"', '"billing"', '"lite"', '"*"'),
);

const leafText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...hostileNumbers),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom('true', 'false', 'null', '[]', '{}', '[null]', '[[]]'),
  stringText,
);

function propertiesOf(schema: TSchema | undefined): Record<string, TSchema> {
  if (!schema || typeof schema !== 'object') return {};
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const variants = [
    ...((schema as { anyOf?: TSchema[] }).anyOf ?? []),
    ...((schema as { oneOf?: TSchema[] }).oneOf ?? []),
    ...((schema as { allOf?: TSchema[] }).allOf ?? []),
  ];
  return Object.assign({}, ...variants.map(propertiesOf), props) as Record<string, TSchema>;
}

/** JSON text shaped like the schema (its field names, nested objects and arrays), with hostile leaves. */
function textFor(schema: TSchema | undefined, depth: number): fc.Arbitrary<string> {
  const props = propertiesOf(schema);
  const names = Object.keys(props);
  const items = (schema as Record<string, unknown> | undefined)?.['items'] as TSchema | undefined;
  const options: Array<fc.Arbitrary<string>> = [leafText];
  if (depth > 0 && names.length > 0) {
    // Keys drawn with replacement: duplicates happen, as do unknown keys.
    const key = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...names) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    );
    options.push(
      fc
        .array(
          key.chain((k) => textFor(props[k], depth - 1).map((v) => `${JSON.stringify(k)}:${v}`)),
          { maxLength: Math.min(names.length + 2, 12) },
        )
        .map((entries) => `{${entries.join(',')}}`),
    );
  }
  if (depth > 0 && items) {
    options.push(
      fc.array(textFor(items, depth - 1), { maxLength: 5 }).map((xs) => `[${xs.join(',')}]`),
    );
  }
  return fc.oneof(...options);
}

const mediaTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'Application/JSON',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=',
      'application/json;;',
      'application/json; foo',
      'application/json, text/plain',
      'application/jsonx',
      'application/vnd.api+json',
      'text/json',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      '',
      ' ',
      '\u0000',
      'application/json\u0000',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const idSegments = fc.oneof(
  { weight: 6, arbitrary: fc.constant('1') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '-0',
      '1.0',
      '1e3',
      '99999999999999999999999',
      '9007199254740993',
      '%FF',
      '%00',
      'abc',
      '%E2%80%AE',
    ),
  },
);

interface Sample {
  body: Buffer | undefined;
  contentType: string | undefined;
  encoding: string | undefined;
  id: string;
}

function samples(route: RouteDef): fc.Arbitrary<Sample> {
  const shaped = textFor(route.schema?.body, 4).map((s) => Buffer.from(s, 'utf8'));
  const mangled = fc.oneof(
    { weight: 6, arbitrary: shaped },
    // Truncated JSON.
    {
      weight: 1,
      arbitrary: fc
        .tuple(shaped, fc.nat())
        .map(([b, n]) => b.subarray(0, b.length === 0 ? 0 : n % b.length)),
    },
    // Invalid UTF-8 spliced in: a lone continuation, an overlong form, an encoded surrogate.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          shaped,
          fc.nat(),
          fc.constantFrom([0xff], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80]),
        )
        .map(([b, n, bad]) => {
          const at = b.length === 0 ? 0 : n % b.length;
          return Buffer.concat([b.subarray(0, at), Buffer.from(bad), b.subarray(at)]);
        }),
    },
    // Deep nesting.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 100, max: 200_000 }), fc.constantFrom('[', '{"a":'))
        .map(([n, open]) =>
          Buffer.from(open.repeat(n) + '1' + (open === '[' ? ']' : '}').repeat(n)),
        ),
    },
    // Arbitrary bytes.
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({
    body: mangled,
    contentType: mediaTypes,
    encoding: route.gzipBody
      ? fc.constantFrom(undefined, undefined, 'gzip', 'br', 'identity', 'gzip, gzip')
      : fc.constantFrom(undefined, undefined, undefined, 'gzip'),
    id: idSegments,
  });
}

// ---------------------------------------------------------------------------------------------

function credentials(route: RouteDef): Record<string, string> {
  if (route.auth === 'admin') return admin;
  if (route.auth === 'node') return { 'x-node-secret': nodeSecret };
  return {};
}

function urlOf(route: RouteDef, id: string): string {
  return route.path.replace(/:sid/g, 'x').replace(/:[A-Za-z_]+/g, id);
}

/** Checks the promises on one answer; returns a description of what broke, if anything. */
function problemWith(res: { statusCode: number; body: string }): string | undefined {
  tally.requests++;
  if (res.statusCode >= 500) tally.fiveXx++;
  if (res.statusCode >= 500) return `status ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `status ${res.statusCode} without a JSON body: ${res.body.slice(0, 200)}`;
  }
  const b = body as { code?: unknown; message?: unknown };
  if (typeof b?.code !== 'string' || typeof b.message !== 'string')
    return `status ${res.statusCode} without {code, message}: ${res.body.slice(0, 200)}`;
  return undefined;
}

function describeSample(s: Sample): string {
  const body = s.body === undefined ? '(none)' : s.body.toString('latin1').slice(0, 160);
  return `content-type=${JSON.stringify(s.contentType)} encoding=${JSON.stringify(s.encoding)} id=${s.id} body(${s.body?.length ?? 0} B)=${JSON.stringify(body)}`;
}

describe(`fuzzing every JSON endpoint (seed ${SEED}, ${RUNS} runs per route)`, () => {
  it('covers every body-carrying route of the table', () => {
    // The table has many more; this guards against the filter silently matching nothing.
    expect(routes.length).toBeGreaterThan(25);
  });

  it(
    'never answers 5xx, always {code, message}, and a refusal changes nothing stored',
    async () => {
      const db = t.raw;
      for (const route of routes) {
        await fc.assert(
          fc.asyncProperty(samples(route), async (s) => {
            const before = tableDigests(db);
            const headers: Record<string, string> = { ...credentials(route) };
            if (s.contentType !== undefined) headers['content-type'] = s.contentType;
            if (s.encoding !== undefined) headers['content-encoding'] = s.encoding;
            const res = await t.app.inject({
              method: route.method,
              url: urlOf(route, s.id),
              headers,
              ...(s.body === undefined ? {} : { payload: s.body }),
            });
            const where = `${route.method} ${route.path} (seed ${SEED}): ${describeSample(s)}`;
            const problem = problemWith(res);
            if (problem) throw new Error(`${where}\n${problem}`);
            if (res.statusCode >= 400) {
              tally.refused++;
              const changed = changedTables(before, tableDigests(db));
              if (changed.length > 0) {
                throw new Error(
                  `${where}\nrefused with ${res.statusCode} ${res.body} but changed ${changed.join(', ')}`,
                );
              }
            } else tally.accepted++;
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
      // Still alive and answering.
      const res = await t.app.inject({ method: 'GET', url: '/api/version/' });
      expect(res.statusCode).toBe(200);
    },
    Math.max(600_000, RUNS * 3_000),
  );
});

/** Decodes a chunked body (answers of unknown length); other bodies are returned as they are. */
function dechunk(headers: Record<string, string>, body: string): string {
  if (headers['transfer-encoding'] !== 'chunked') return body;
  let out = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

describe('over a real socket, fast lanes included (inject bypasses them)', () => {
  it(
    'never answers 5xx on the node routes and always {code, message}',
    async () => {
      const port = await listenOnLoopback(t.app);
      const db = t.raw;
      for (const route of routes.filter((r) => r.auth === 'node')) {
        await fc.assert(
          fc.asyncProperty(samples(route), async (s) => {
            const before = tableDigests(db);
            const body = s.body ?? Buffer.alloc(0);
            const head =
              `${route.method} ${route.path} HTTP/1.1\r\nHost: dash.test\r\nConnection: close\r\n` +
              `X-Node-Secret: ${nodeSecret}\r\n` +
              (s.contentType === undefined ? '' : `Content-Type: ${s.contentType}\r\n`) +
              (s.encoding === undefined ? '' : `Content-Encoding: ${s.encoding}\r\n`) +
              `Content-Length: ${body.length}\r\n\r\n`;
            const raw = await rawRequest(port, Buffer.concat([Buffer.from(head, 'latin1'), body]));
            const res = parseRaw(raw);
            const where = `socket ${route.method} ${route.path} (seed ${SEED}): ${describeSample(s)}`;
            const problem = problemWith({
              statusCode: res.status,
              body: dechunk(res.headers, res.body),
            });
            if (problem) throw new Error(`${where}\n${problem}`);
            if (res.status >= 400) {
              const changed = changedTables(before, tableDigests(db));
              if (changed.length > 0)
                throw new Error(`${where}\nrefused but changed ${changed.join(', ')}`);
            }
          }),
          { seed: SEED, numRuns: Math.max(10, RUNS >> 1), endOnFailure: true },
        );
      }
    },
    Math.max(300_000, RUNS * 2_000),
  );
});

describe('body limits, at and past each limit', () => {
  const padded = (size: number) => Buffer.from('{}'.padStart(size, ' '));

  it('takes a body of exactly the limit and answers a byte more with 413 body_too_large', async () => {
    const db = t.raw;
    const cache = new Map<number, [Buffer, Buffer]>();
    for (const route of routes) {
      const limit = route.bodyLimit ?? API_BODY_LIMIT;
      if (!cache.has(limit)) cache.set(limit, [padded(limit), padded(limit + 1)]);
      const [at, past] = cache.get(limit)!;
      const headers = { ...credentials(route), 'content-type': 'application/json' };
      const url = urlOf(route, '1');
      const before = tableDigests(db);
      const over = await t.app.inject({ method: route.method, url, headers, payload: past });
      expect(over.statusCode, `${route.method} ${route.path} at ${limit + 1} B`).toBe(413);
      expect(over.json()).toMatchObject({ code: 'body_too_large' });
      expect(problemWith(over)).toBeUndefined();
      expect(changedTables(before, tableDigests(db)), `${route.method} ${route.path}`).toEqual([]);
      const fits = await t.app.inject({ method: route.method, url, headers, payload: at });
      expect(fits.statusCode, `${route.method} ${route.path} at ${limit} B`).not.toBe(413);
      expect(problemWith(fits), `${route.method} ${route.path}`).toBeUndefined();
    }
  }, 300_000);
});
