import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bigintArray,
  docColumns,
  docsColumn,
  encodeDocs,
} from '../../../src/store/postgres/array-params.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

describe('ingest array parameters (pure)', () => {
  it('writes integers and nulls as a bigint[] literal', () => {
    expect(bigintArray([1, -2, null, 2 ** 53 - 1, undefined])).toBe(
      '{1,-2,NULL,9007199254740991,NULL}',
    );
    expect(bigintArray([])).toBe('{}');
  });

  it('refuses a document that could be split wrongly', () => {
    expect(() => encodeDocs(['{"a":1}', 'x\u001fy'])).toThrow(/control character/);
    expect(() => encodeDocs(['\u001e'])).toThrow(/control character/);
    expect(() => encodeDocs([''])).toThrow(/empty/);
  });

  it('splits rows of documents into columns, in row order', () => {
    const rows = [
      encodeDocs(['{"r":1}', null, '[1]', '"é"']),
      encodeDocs(['{"r":2}', '{}', null, null]),
    ];
    const text = docColumns(rows, 4).map((b) => b.toString('utf8'));
    expect(text).toEqual([
      '{"r":1}\u001f{"r":2}',
      '\u001e\u001f{}',
      '[1]\u001f\u001e',
      '"é"\u001f\u001e',
    ]);
    expect(() => docColumns([encodeDocs(['{}', '{}'])], 4)).toThrow(/fewer than 4/);
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)('ingest array parameters in PostgreSQL', () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = await openSharedPostgres(Date.UTC(2026, 10, 25));
  });
  afterAll(async () => store.close());

  /** Each document as the only one of its row: column 0 of one-document rows. */
  const roundTrip = async (docs: Array<string | null>) => {
    const [column] = docColumns(
      docs.map((d) => encodeDocs([d])),
      1,
    );
    const res = await store.pool.query<{ d: string | null; n: string }>(
      `SELECT * FROM ROWS FROM (${docsColumn(1)}, unnest($2::bigint[])) AS t (d, n)`,
      [column, bigintArray(docs.map((_, i) => i))],
    );
    return res.rows.map((r) => r.d);
  };

  it('gives back every document as written, in order, nulls as SQL NULL', async () => {
    const docs = [
      JSON.stringify({ q: 'say "hi"', b: 'back\\slash', u: 'é✓😀', c: '\u001f\n\t' }),
      null,
      '{}',
      JSON.stringify(['a,b', '{x}', 'NULL', null]),
      null,
    ];
    expect(await roundTrip(docs)).toEqual(docs);
  });

  it('keeps a batch of one, a null one included', async () => {
    expect(await roundTrip([null])).toEqual([null]);
    expect(await roundTrip(['{"a":1}'])).toEqual(['{"a":1}']);
    expect(await roundTrip([null, null])).toEqual([null, null]);
  });

  it('reads the bigint literal back as the same numbers', async () => {
    const values = [0, 1, -1, 1_764_000_000_000, null, Number.MAX_SAFE_INTEGER];
    const res = await store.pool.query<{ v: string | null }>(
      'SELECT unnest($1::bigint[])::text AS v',
      [bigintArray(values)],
    );
    expect(res.rows.map((r) => (r.v === null ? null : Number(r.v)))).toEqual(values);
  });
});
