const CONTROL = /\p{Cc}/u;

/** Length in Unicode code points, the unit of every name and tag limit in the spec. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * Trims and checks a free-text field: between `min` and `max` code points, no control
 * characters. Returns the trimmed text, or undefined when it breaks a rule.
 */
export function cleanText(raw: string, min: number, max: number): string | undefined {
  const text = raw.trim();
  const len = codePoints(text);
  if (len < min || len > max || hasControlChars(text)) return undefined;
  return text;
}
