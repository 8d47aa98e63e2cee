const DATA_URL_TYPES = new Set([
  'image/svg+xml',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/ico',
]);
export const MAX_LOGO_BYTES = 768 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isSameOriginPath(v: string): boolean {
  return v.startsWith('/') && !v.startsWith('//') && !/[\\\r\n\t]/.test(v);
}

function isHttpsUrl(v: string): boolean {
  if (!v.toLowerCase().startsWith('https://')) return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

function isImageDataUrl(v: string): boolean {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(v);
  if (!m) return false;
  return (
    DATA_URL_TYPES.has((m[1] ?? '').toLowerCase()) &&
    (m[2] ?? '').length > 0 &&
    BASE64.test(m[2] ?? '')
  );
}

/**
 * Logo URLs a new value may take: a same-origin absolute path, an external https URL, or a
 * base64 image data URL of a supported type. Plain http is refused on write (a stored legacy
 * http logo is still served: it is never revalidated unless the logo itself changes).
 */
export function isAcceptableLogoUrl(v: string): boolean {
  if (Buffer.byteLength(v) > MAX_LOGO_BYTES) return false;
  return isSameOriginPath(v) || isHttpsUrl(v) || isImageDataUrl(v);
}
