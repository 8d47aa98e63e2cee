/**
 * Packs node ids into comma-separated payloads of at most `maxBytes` each (after `prefix`),
 * so any number of ids crosses a bus with a per-message size limit.
 */
export function packIds(prefix: string, ids: Iterable<number>, maxBytes: number): string[] {
  const out: string[] = [];
  let cur = prefix;
  let empty = true;
  for (const id of ids) {
    const part = empty ? String(id) : `,${id}`;
    if (!empty && Buffer.byteLength(cur) + part.length > maxBytes) {
      out.push(cur);
      cur = prefix + String(id);
    } else {
      cur += part;
    }
    empty = false;
  }
  if (!empty) out.push(cur);
  return out;
}

/** The ids of a packed payload; anything that is not a positive integer is skipped. */
export function unpackIds(body: string): number[] {
  const ids: number[] = [];
  for (const part of body.split(',')) {
    if (!/^[1-9][0-9]{0,15}$/.test(part)) continue;
    const id = Number(part);
    if (Number.isSafeInteger(id)) ids.push(id);
  }
  return ids;
}
