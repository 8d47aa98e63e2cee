/** RFC 3339 in UTC with second precision, the format of most API timestamps. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
