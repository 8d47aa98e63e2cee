/**
 * Array parameters of the ingest statements, written here rather than by node-postgres, which
 * turns a JS array parameter into a literal by quoting every element and running two regular
 * expressions over it (`escapeElement`), numbers included: with about 30 columns of numbers
 * per report in the raw history insert, that was the largest part of the commit's parameter
 * work on the HTTP thread (docs/postgresql.md "Two instances").
 */

/**
 * A `bigint[]` literal of integers (null: SQL NULL). A value that is not an integer is written
 * as JavaScript prints it, which PostgreSQL refuses, as it refused node-postgres' literal.
 */
export function bigintArray(values: ReadonlyArray<number | null | undefined>): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    out += v === null || v === undefined ? 'NULL' : String(v);
  }
  return out + '}';
}

/**
 * JSON documents travel as UTF-8, one after another, separated by 0x1F, a NULL one written as
 * the single byte 0x1E. JSON text never holds a raw control character (JSON.stringify writes
 * them as `\u001f`), so neither byte can occur inside a document, and nothing is escaped:
 * sending them as a `text[]` (or a JSON array of strings) escaped every quote of every document
 * on the HTTP thread and unescaped it again in PostgreSQL.
 */
const SEPARATOR = 0x1f;
const NULL_DOC = 0x1e;

/** SQL unpacking parameter `$n` (one docColumns buffer) into one text per row, in order. */
export function docsColumn(n: number): string {
  return `unnest(string_to_array($${n}::text, chr(31), chr(30)))`;
}

function checked(doc: string): string {
  if (doc === '' || doc.includes('\u001f') || doc.includes('\u001e')) {
    throw new Error('a JSON document to store is empty or holds a raw control character');
  }
  return doc;
}

/** Bytes one report's documents take in writeDocs' format. */
export function docsLength(docs: ReadonlyArray<string | null>): number {
  let n = docs.length - 1;
  for (const d of docs) n += d === null ? 1 : Buffer.byteLength(checked(d));
  return n;
}

/**
 * Writes one report's documents (runtime, SMART, thermal, pressure) into `buf` at `at` in the
 * format above; returns where they end. A preparation thread does this, so the HTTP thread gets
 * bytes it passes on to PostgreSQL as they are.
 */
export function writeDocs(docs: ReadonlyArray<string | null>, buf: Buffer, at: number): number {
  let end = at;
  docs.forEach((d, i) => {
    if (i > 0) buf[end++] = SEPARATOR;
    if (d === null) buf[end++] = NULL_DOC;
    else end += buf.write(checked(d), end, 'utf8');
  });
  return end;
}

/** writeDocs into a buffer of its own. */
export function encodeDocs(docs: ReadonlyArray<string | null>): Uint8Array {
  const buf = Buffer.allocUnsafe(docsLength(docs));
  writeDocs(docs, buf, 0);
  return buf;
}

/**
 * The parameters of `columns` document columns: column c holds document c of every row, in
 * row order, in the same format. Sent as a Buffer, node-postgres passes it in binary format,
 * which for `text` is the bytes themselves: no string is made of them on this thread.
 */
export function docColumns(rows: readonly Uint8Array[], columns: number): Buffer[] {
  const views = rows.map((r) => Buffer.from(r.buffer, r.byteOffset, r.byteLength));
  /** Per row, where each document starts and ends: [start0, end0, start1, end1, …]. */
  const bounds = views.map((v) => {
    const out: number[] = [];
    let start = 0;
    for (let c = 0; c < columns; c++) {
      const end = c === columns - 1 ? v.length : v.indexOf(SEPARATOR, start);
      if (end < 0) throw new Error(`a stored projection holds fewer than ${columns} documents`);
      out.push(start, end);
      start = end + 1;
    }
    return out;
  });
  // One allocation for every column (node-postgres copies each parameter into its message).
  const sizes: number[] = [];
  for (let c = 0; c < columns; c++) {
    let size = Math.max(0, rows.length - 1);
    for (const b of bounds) size += b[2 * c + 1]! - b[2 * c]!;
    sizes.push(size);
  }
  const all = Buffer.allocUnsafe(sizes.reduce((a, b) => a + b, 0));
  const params: Buffer[] = [];
  let at = 0;
  for (let c = 0; c < columns; c++) {
    const start = at;
    views.forEach((v, i) => {
      if (i > 0) all[at++] = SEPARATOR;
      const b = bounds[i]!;
      at += v.copy(all, at, b[2 * c], b[2 * c + 1]);
    });
    params.push(all.subarray(start, at));
  }
  return params;
}
