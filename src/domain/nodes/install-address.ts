/** The Dash address install commands carry, and what the admin should know about it. */
export interface InstallAddress {
  /** Root URL (scheme, host, optional port; no trailing slash). */
  baseUrl: string;
  /** `config`: the configured public URL; `request`: the address the admin's browser used. */
  source: 'config' | 'request';
  /** Set when nodes elsewhere cannot reach this address (a loopback host). */
  warning?: string;
}

/** True for localhost names and loopback addresses (127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(h) ||
    h === '::1' ||
    h === '0:0:0:0:0:0:0:1'
  );
}

/** `scheme://host[:port]` from a request's protocol and Host header, or null when not one. */
export function requestBaseUrl(protocol: string, host: string | undefined): string | null {
  if (!host || !/^https?$/.test(protocol) || !/^[A-Za-z0-9.:[\]_-]+$/.test(host)) return null;
  try {
    const url = new URL(`${protocol}://${host}`);
    if (url.username || url.password || url.pathname !== '/') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * The address to put in install commands: the configured public URL; without one, the address
 * the admin's browser reached Dash on (what the listen-derived default usually is not, e.g. 0.0.0.0
 * or behind a proxy). A loopback address works only for an agent on the Dash host itself.
 */
export function installAddress(opts: {
  publicUrl: string;
  configured: boolean;
  requestBase: string | null;
}): InstallAddress {
  const useRequest = !opts.configured && opts.requestBase !== null;
  const baseUrl = useRequest ? opts.requestBase! : opts.publicUrl;
  const source = useRequest ? 'request' : 'config';
  if (!isLoopbackHost(new URL(baseUrl).hostname)) return { baseUrl, source };
  return {
    baseUrl,
    source,
    warning:
      `${new URL(baseUrl).host} is a loopback address: only an agent on this machine can reach it. ` +
      'Open the admin page through an address the nodes can reach, or set DASH_PUBLIC_URL.',
  };
}
