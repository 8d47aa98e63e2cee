import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import semver from 'semver';

export const RELEASE_CHANNELS = ['release', 'prerelease'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

/** What a release promises: the bundle it names must have exactly this digest and size. */
export interface ReleaseManifest {
  format: 1;
  version: string;
  channel: ReleaseChannel;
  /** File name of the tar.gz next to the manifest in the feed. */
  bundle: string;
  sha256: string;
  size: number;
  /** Plain text (Markdown-like); rendered escaped by the release-notes endpoint. */
  notes: string;
  /** Bundled node agent version. */
  node_version: string;
  published_at: string;
}

/** The file a feed holds: the manifest and an Ed25519 signature over its canonical bytes. */
export interface SignedManifest {
  manifest: ReleaseManifest;
  /** base64 Ed25519 signature of canonicalManifest(manifest). */
  signature: string;
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

const BUNDLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}\.tar\.gz$/;
/** The biggest bundle Dash downloads (compressed). */
export const MAX_BUNDLE_BYTES = 1024 ** 3;

/** The signed bytes: keys in a fixed order, so signer and verifier agree without a JSON canon. */
export function canonicalManifest(m: ReleaseManifest): Buffer {
  return Buffer.from(
    JSON.stringify([
      m.format,
      m.version,
      m.channel,
      m.bundle,
      m.sha256,
      m.size,
      m.notes,
      m.node_version,
      m.published_at,
    ]),
  );
}

export function signManifest(m: ReleaseManifest, privateKey: KeyObject): SignedManifest {
  return {
    manifest: m,
    signature: sign(null, canonicalManifest(m), privateKey).toString('base64'),
  };
}

function field<T>(o: Record<string, unknown>, key: string, ok: (v: unknown) => v is T): T {
  const v = o[key];
  if (!ok(v)) throw new ManifestError(`manifest field ${key} is missing or invalid`);
  return v;
}
const isString = (v: unknown): v is string => typeof v === 'string';

/** Parses untrusted JSON into a manifest; shape only, not the signature. */
export function parseManifest(raw: unknown): ReleaseManifest {
  if (typeof raw !== 'object' || raw === null) throw new ManifestError('manifest is not an object');
  const o = raw as Record<string, unknown>;
  const m: ReleaseManifest = {
    format: field(o, 'format', (v): v is 1 => v === 1),
    version: field(o, 'version', (v): v is string => isString(v) && semver.valid(v) === v),
    channel: field(o, 'channel', (v): v is ReleaseChannel =>
      (RELEASE_CHANNELS as readonly unknown[]).includes(v),
    ),
    bundle: field(o, 'bundle', (v): v is string => isString(v) && BUNDLE_NAME.test(v)),
    sha256: field(o, 'sha256', (v): v is string => isString(v) && /^[0-9a-f]{64}$/.test(v)),
    size: field(
      o,
      'size',
      (v): v is number =>
        typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= MAX_BUNDLE_BYTES,
    ),
    notes: field(o, 'notes', (v): v is string => isString(v) && v.length <= 256 * 1024),
    node_version: field(o, 'node_version', (v): v is string => isString(v) && v.length <= 64),
    published_at: field(o, 'published_at', (v): v is string => isString(v) && v.length <= 64),
  };
  return m;
}

/** Parses a signed manifest and checks its signature; throws ManifestError when either fails. */
export function verifySignedManifest(raw: unknown, publicKey: KeyObject): ReleaseManifest {
  if (typeof raw !== 'object' || raw === null) throw new ManifestError('not a signed manifest');
  const { manifest, signature } = raw as Record<string, unknown>;
  const m = parseManifest(manifest);
  if (typeof signature !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    throw new ManifestError('signature is missing');
  }
  const ok = verify(null, canonicalManifest(m), publicKey, Buffer.from(signature, 'base64'));
  if (!ok) throw new ManifestError(`signature of release ${m.version} does not verify`);
  return m;
}

/** Loads a PEM Ed25519 public key; anything else is refused. */
export function loadPublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new ManifestError('public key is not Ed25519');
  return key;
}
