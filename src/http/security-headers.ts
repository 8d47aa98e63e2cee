/**
 * Headers of every answer outside /api (web UI, /deploy): the page may not be framed, and it
 * may only run and style itself from its own origin. The built SPA has no inline script or
 * style element; React and uPlot set styles through the CSSOM, which style-src does not govern.
 * Images may also be https: or data: URLs (the configurable logo).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};
