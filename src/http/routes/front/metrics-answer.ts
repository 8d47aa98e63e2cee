import type { FrontSnapshot } from './metrics-cache.js';

/** Responses differ by audience (the bearer token) and by compression. */
export const FRONT_METRICS_VARY = 'Authorization, Accept-Encoding';

export interface SnapshotAnswer {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** Absent for 304. */
  readonly body?: Buffer;
}

interface Answers {
  notModified: SnapshotAnswer;
  gzip: SnapshotAnswer;
  identity: SnapshotAnswer;
}

/** The three answers of a snapshot, built once: the poll is answered thousands of times a second. */
const answersOf = new WeakMap<FrontSnapshot, Answers>();

function answers(snap: FrontSnapshot): Answers {
  let a = answersOf.get(snap);
  if (!a) {
    const base = { vary: FRONT_METRICS_VARY, etag: snap.etag };
    a = {
      notModified: { status: 304, headers: base },
      gzip: { status: 200, headers: { ...base, 'content-encoding': 'gzip' }, body: snap.gzip },
      identity: { status: 200, headers: base, body: snap.body },
    };
    answersOf.set(snap, a);
  }
  return a;
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
  const a = answers(snap);
  if (ifNoneMatch === snap.etag) return a.notModified;
  return acceptsGzip(acceptEncoding) ? a.gzip : a.identity;
}
