import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { KeyObject } from 'node:crypto';
import { ManifestError, verifySignedManifest, type ReleaseManifest } from './manifest.js';

/** One release the feed offers, with where its notes and bundle come from. */
export interface FeedRelease {
  manifest: ReleaseManifest;
  /** Where the manifest was read (shown as the notes' source). */
  source: string;
}

export interface FeedListing {
  releases: FeedRelease[];
  /** Entries refused (bad signature, bad shape), for the log. */
  rejected: string[];
}

/** A release feed: lists signed manifests and fetches bundles. */
export interface ReleaseFeed {
  readonly location: string;
  list(signal?: AbortSignal): Promise<FeedListing>;
  /** Streams the bundle into `dest`; fails when it is longer than `maxBytes`. */
  download(m: ReleaseManifest, dest: string, maxBytes: number, signal?: AbortSignal): Promise<void>;
}

export class FeedError extends Error {
  override name = 'FeedError';
}

const MAX_MANIFEST_BYTES = 512 * 1024;
const MANIFEST_SUFFIX = '.manifest.json';

function verifyAll(entries: Array<{ raw: unknown; source: string }>, key: KeyObject): FeedListing {
  const out: FeedListing = { releases: [], rejected: [] };
  for (const { raw, source } of entries) {
    try {
      out.releases.push({ manifest: verifySignedManifest(raw, key), source });
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      out.rejected.push(`${source}: ${err.message}`);
    }
  }
  return out;
}

/** Copies with a byte ceiling, so a lying or endless source cannot fill the disk. */
function limit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new FeedError(`bundle is larger than ${maxBytes} bytes`));
      else done(null, chunk);
    },
  });
}

/** A local directory of `<version>.manifest.json` files next to their bundles. */
export function directoryFeed(dir: string, key: KeyObject): ReleaseFeed {
  return {
    location: dir,
    async list() {
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith(MANIFEST_SUFFIX)).sort();
      } catch (err) {
        throw new FeedError(`release feed ${dir} cannot be read: ${(err as Error).message}`);
      }
      const entries: Array<{ raw: unknown; source: string }> = [];
      for (const name of names) {
        const source = join(dir, name);
        try {
          const text = await readFile(source, 'utf8');
          if (text.length > MAX_MANIFEST_BYTES) throw new Error('too large');
          entries.push({ raw: JSON.parse(text), source });
        } catch (err) {
          entries.push({ raw: null, source: `${source} (${(err as Error).message})` });
        }
      }
      return verifyAll(entries, key);
    },
    async download(m, dest, maxBytes) {
      await pipeline(
        createReadStream(join(dir, m.bundle)),
        limit(maxBytes),
        createWriteStream(dest),
      );
    },
  };
}

/** An HTTP(S) feed: `{base}/index.json` is an array of signed manifests; bundles beside it. */
export function httpFeed(baseUrl: string, key: KeyObject, timeoutMs = 12_000): ReleaseFeed {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return {
    location: base,
    async list(signal) {
      const url = new URL('index.json', base).toString();
      const res = await fetch(url, {
        signal: signal ?? AbortSignal.timeout(timeoutMs),
        redirect: 'follow',
      }).catch((err: unknown) => {
        throw new FeedError(`release feed ${url} unreachable: ${(err as Error).message}`);
      });
      if (!res.ok) throw new FeedError(`release feed ${url} answered ${res.status}`);
      const text = await res.text();
      if (text.length > MAX_MANIFEST_BYTES * 64) throw new FeedError('release index too large');
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        throw new FeedError(`release feed ${url} is not JSON`);
      }
      if (!Array.isArray(doc)) throw new FeedError(`release feed ${url} is not an array`);
      return verifyAll(
        doc.map((raw: unknown, i) => ({ raw, source: `${url}#${i}` })),
        key,
      );
    },
    async download(m, dest, maxBytes, signal) {
      const url = new URL(encodeURIComponent(m.bundle), base).toString();
      const res = await fetch(url, { signal, redirect: 'follow' });
      if (!res.ok || !res.body) throw new FeedError(`bundle ${url} answered ${res.status}`);
      await pipeline(
        Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
        limit(maxBytes),
        createWriteStream(dest),
      );
    },
  };
}

/** Downloads and checks size and digest; the file is removed when either is wrong. */
export async function fetchVerifiedBundle(
  feed: ReleaseFeed,
  m: ReleaseManifest,
  dest: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await feed.download(m, dest, m.size, signal);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(dest)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    if (size !== m.size) {
      throw new FeedError(`bundle is ${size} bytes, the manifest says ${m.size} (truncated?)`);
    }
    const digest = hash.digest('hex');
    if (digest !== m.sha256) throw new FeedError(`bundle sha256 ${digest} does not match manifest`);
  } catch (err) {
    await rm(dest, { force: true });
    throw err;
  }
}

export function isHttpFeed(location: string): boolean {
  return /^https?:\/\//i.test(location);
}
