/**
 * Array parameters of the ingest statements, written as PostgreSQL array literals here.
 * node-postgres turns a JS array parameter into a literal by quoting every element and running
 * two regular expressions over it (`escapeElement`), numbers included: with about 30 columns of
 * numbers per report in the raw history insert, that was the largest part of the commit's
 * parameter work on the HTTP thread (docs/postgresql.md "Two instances"). Numbers need neither
 * quotes nor escapes.
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
 * Separates documents in a `docsParam` value, and marks a NULL one. JSON text never holds a
 * raw control character (JSON.stringify writes them as `\u001f`), so neither can occur in one.
 */
const DOC_SEPARATOR = '\u001f';
const DOC_NULL = '\u001e';

/** SQL unpacking parameter `$n` written by docsParam into one text per row, in order. */
export function docsColumn(n: number): string {
  return `unnest(string_to_array($${n}::text, chr(31), chr(30)))`;
}

/**
 * JSON documents (null: SQL NULL) as one text parameter for docsColumn: joined, not escaped.
 * Sending them as a `text[]` (or as a JSON array of strings) escaped every quote of every
 * document on this thread and unescaped it again in PostgreSQL. A document holding a raw
 * control character (none of Dash's do) is refused rather than split wrongly.
 */
export function docsParam(docs: ReadonlyArray<string | null>): string {
  let out = '';
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (i > 0) out += DOC_SEPARATOR;
    if (d === null || d === undefined) {
      out += DOC_NULL;
      continue;
    }
    if (d.includes(DOC_SEPARATOR) || d.includes(DOC_NULL) || d === '') {
      throw new Error('a JSON document to store holds a raw control character or is empty');
    }
    out += d;
  }
  return out;
}
