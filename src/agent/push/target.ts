import { acceptsGzip, postJson, TransportError, type HttpResponse } from './http.js';

export interface TargetConfig {
  /** Positive number naming the target in `report update/remove <id>` (report.yaml `id`). */
  id?: number;
  /** Report URL ending in /metrics (…/api/node/metrics). */
  url: string;
  key: string;
  /** Dash install id from the identity call, kept in the report config. */
  serverInstallId?: string;
}

/** The sibling endpoint of a report URL: …/metrics → …/static or …/identity (spec §4.4 rule 1). */
export function siblingUrl(metricsUrl: URL, leaf: 'static' | 'identity'): URL {
  const url = new URL(metricsUrl.href);
  url.pathname = url.pathname.replace(/\/metrics$/, `/${leaf}`);
  return url;
}

export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`not an HTTP or HTTPS URL: ${raw}`);
  }
  if (!url.pathname.endsWith('/metrics')) throw new Error(`URL must end with /metrics: ${raw}`);
  return url;
}

/** After a successful fallback, plain HTTP is used for this long before HTTPS is tried again. */
const FALLBACK_STICKY_MS = 10 * 60_000;

/** The http:// twin of an https:// URL: same host, same explicit port, default port 80 otherwise. */
export function httpTwin(url: URL): URL {
  const twin = new URL(url.href);
  twin.protocol = 'http:';
  return twin;
}

/**
 * Sends to one Dash over HTTPS, falling back to plain HTTP when HTTPS fails before any response
 * (certificate errors, a plain-HTTP server on that port, nothing listening): spec §4.4 rule 5.
 * A timeout is not a reason to fall back, because the server is then merely slow or away. With
 * requireHttps no fallback happens (and plain-HTTP targets are refused before they get here).
 *
 * Bodies go gzip-compressed once the server has said it takes them: Dash lists gzip in the
 * Accept-Encoding header of its node responses (RFC 7694). Every response updates what is
 * known, so a server that stops saying it (another Dash, Ithiltir) gets plain JSON from the
 * next request on, and a 415 to a compressed body is answered by sending that body again plain.
 */
export class Endpoint {
  private fallbackUntil = 0;
  private gzip = false;

  constructor(
    readonly target: TargetConfig,
    readonly url: URL,
    private readonly requireHttps: boolean,
    /** Told each time HTTPS failed and plain HTTP answered instead (the secret travels in clear). */
    private readonly onFallback: (reason: string) => void = () => undefined,
  ) {}

  /** Whether the next body to this target goes gzip-compressed. */
  get sendsGzip(): boolean {
    return this.gzip;
  }

  async post(url: URL, payload: unknown, nowMs: number): Promise<HttpResponse> {
    const gzip = this.gzip;
    let res = await this.send(url, payload, nowMs, gzip);
    this.gzip = acceptsGzip(res.acceptEncoding);
    if (gzip && res.status === 415) {
      this.gzip = false;
      res = await this.send(url, payload, nowMs, false);
    }
    return res;
  }

  private async send(
    url: URL,
    payload: unknown,
    nowMs: number,
    gzip: boolean,
  ): Promise<HttpResponse> {
    const opts = { gzip };
    const canFallBack = url.protocol === 'https:' && !this.requireHttps;
    if (canFallBack && nowMs < this.fallbackUntil) {
      return postJson(httpTwin(url), this.target.key, payload, opts);
    }
    try {
      const res = await postJson(url, this.target.key, payload, opts);
      this.fallbackUntil = 0;
      return res;
    } catch (err) {
      if (!canFallBack || !(err instanceof TransportError) || err.timedOut) throw err;
      const res = await postJson(httpTwin(url), this.target.key, payload, opts);
      this.fallbackUntil = nowMs + FALLBACK_STICKY_MS;
      this.onFallback(err.message);
      return res;
    }
  }
}
