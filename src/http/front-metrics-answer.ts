import type { FrontSnapshot } from './front-metrics-cache.js';

/** Responses differ by audience (the bearer token) and by compression. */
export const FRONT_METRICS_VARY = 'Authorization, Accept-Encoding';

export interface SnapshotAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** Absent for 304. */
  body?: Buffer;
}

export function acceptsGzip(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && /\bgzip\b/.test(header);
}

/**
 * The whole-list answer of GET /api/front/metrics, shared by the route and its fast lane so the
 * two cannot drift apart: conditional request, then compression.
 */
export function snapshotAnswer(
  snap: FrontSnapshot,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | string[] | undefined,
): SnapshotAnswer {
  const headers: Record<string, string> = { vary: FRONT_METRICS_VARY, etag: snap.etag };
  if (ifNoneMatch === snap.etag) return { status: 304, headers };
  if (acceptsGzip(acceptEncoding)) {
    headers['content-encoding'] = 'gzip';
    return { status: 200, headers, body: snap.gzip };
  }
  return { status: 200, headers, body: snap.body };
}
