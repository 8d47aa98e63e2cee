/**
 * RFC 3339 in UTC with second precision, the format of most API timestamps. toISOString always
 * ends in `.sssZ`; slicing it off is several times cheaper than a regex replace, which showed up
 * in history responses that format hundreds of timestamps each.
 */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -5)}Z`;
}
