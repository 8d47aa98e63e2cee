import type { UpdateManifest } from '../payload.js';
import { isJsonMediaType, type HttpResponse } from '../push/http.js';

/**
 * The `update` member of a metrics response, or undefined. Only a 200 with an application/json
 * media type is read; anything else, a body that is not a JSON object, and every other top-level
 * field are ignored (`ok` is not required): spec §4.4 rule 3.
 */
export function extractManifest(res: HttpResponse): unknown {
  if (res.status !== 200 || !isJsonMediaType(res.contentType) || res.body.length === 0) {
    return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const update = (doc as Record<string, unknown>).update;
  return update === null ? undefined : update;
}

/** Rule 7 of spec §4.4: the manifest, or the reason it is invalid. */
export function validateManifest(raw: unknown): UpdateManifest | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not an object';
  const m = raw as Record<string, unknown>;
  const { id, version, url, sha256, size } = m;
  if (id !== undefined && typeof id !== 'string') return 'id is not a string';
  if (typeof version !== 'string' || version.trim() === '') return 'version is empty';
  if (version === '.' || version === '..' || /[/\\\0]/.test(version)) {
    return 'version is not a single path segment';
  }
  if (typeof url !== 'string') return 'url is missing';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url is not absolute';
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    return 'url is not an HTTP(S) URL with a host';
  }
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) {
    return 'sha256 is not 64 hex characters';
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) {
    return 'size is not a positive integer';
  }
  return { ...(id !== undefined ? { id } : {}), version, url, sha256, size };
}

/** A manifest as one target returned it in one push cycle. */
export interface ManifestOffer<T = unknown> {
  raw: unknown;
  from: T;
}

export type ManifestDecision<T> =
  | { kind: 'none' }
  | { kind: 'conflict' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'update'; manifest: UpdateManifest; from: T };

const FIELDS = ['id', 'version', 'url', 'sha256', 'size'] as const;

function sameManifest(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return FIELDS.every((f) => x[f] === y[f]);
}

/**
 * Rule 8 of spec §4.4. Manifests for the version already running are dropped first; the ones
 * left must agree on id, version, url, sha256 and size across targets, otherwise nothing is done
 * this cycle. The agreed manifest must then pass rule 7.
 */
export function decideManifest<T>(
  offers: readonly ManifestOffer<T>[],
  currentVersion: string,
): ManifestDecision<T> {
  const pending = offers.filter((o) => {
    const v = (o.raw as { version?: unknown } | null)?.version;
    return v !== currentVersion;
  });
  const first = pending[0];
  if (!first) return { kind: 'none' };
  if (pending.some((o) => !sameManifest(o.raw, first.raw))) return { kind: 'conflict' };
  const manifest = validateManifest(first.raw);
  if (typeof manifest === 'string') return { kind: 'invalid', reason: manifest };
  return { kind: 'update', manifest, from: first.from };
}
