import { createHash, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import semver from 'semver';
import {
  signManifest,
  type ReleaseChannel,
  type ReleaseManifest,
  type SignedManifest,
} from './manifest.js';

export interface PublishOptions {
  /** A complete release tree (bin/dash, dist/, web/dist, node_modules, package.json). */
  stageDir: string;
  /** The feed directory: bundle, `<version>.manifest.json` and `index.json` go here. */
  outDir: string;
  version: string;
  notes: string;
  nodeVersion: string;
  privateKey: KeyObject;
  publishedAt: string;
  channel?: ReleaseChannel;
}

/** Packs a release tree into `dash-<version>.tar.gz` and writes its signed manifest. */
export async function publishRelease(o: PublishOptions): Promise<SignedManifest> {
  if (!semver.valid(o.version)) throw new Error(`version ${o.version} is not SemVer`);
  const bundle = `dash-${o.version}.tar.gz`;
  const file = join(o.outDir, bundle);
  const entries = readdirSync(o.stageDir).sort();
  await tar.c({ gzip: true, file, cwd: o.stageDir, portable: true }, entries);
  const bytes = readFileSync(file);
  const manifest: ReleaseManifest = {
    format: 1,
    version: o.version,
    channel: o.channel ?? (semver.prerelease(o.version) ? 'prerelease' : 'release'),
    bundle,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: statSync(file).size,
    notes: o.notes,
    node_version: o.nodeVersion,
    published_at: o.publishedAt,
  };
  const signed = signManifest(manifest, o.privateKey);
  writeFileSync(
    join(o.outDir, `${o.version}.manifest.json`),
    JSON.stringify(signed, null, 2) + '\n',
  );
  writeFeedIndex(o.outDir);
  return signed;
}

/** `index.json`: every manifest in the directory, for serving the directory over HTTP. */
export function writeFeedIndex(outDir: string): void {
  const all = readdirSync(outDir)
    .filter((n) => n.endsWith('.manifest.json'))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(outDir, n), 'utf8')) as unknown);
  writeFileSync(join(outDir, 'index.json'), JSON.stringify(all, null, 2) + '\n');
}
