import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { UpdateManifest } from '../payload.js';
import { openRequest } from '../push/http.js';
import { AGENT_USER_AGENT } from '../build-info.js';
import type { ManagedLayout } from './layout.js';

const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export class UpdateError extends Error {}

const suffix = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Downloads the manifest's asset to `dest` with the node secret, refusing anything but a 200 and
 * stopping as soon as the body exceeds the announced size; afterwards size and SHA-256 must match.
 * The file is created 0755 and removed again on any failure.
 */
export async function downloadVerified(
  manifest: UpdateManifest,
  secret: string,
  dest: string,
): Promise<void> {
  const res = await openRequest(new URL(manifest.url), {
    method: 'GET',
    headers: { 'X-Node-Secret': secret, 'User-Agent': AGENT_USER_AGENT },
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
  });
  if (res.statusCode !== 200) {
    res.resume();
    throw new UpdateError(`download answered ${res.statusCode ?? 0}`);
  }
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > manifest.size) {
        done(new UpdateError(`download is larger than ${manifest.size} bytes`));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(res, meter, createWriteStream(dest, { mode: 0o755, flags: 'wx' }));
    if (size !== manifest.size) {
      throw new UpdateError(`download has ${size} bytes, manifest says ${manifest.size}`);
    }
    const digest = hash.digest('hex');
    if (digest !== manifest.sha256.toLowerCase()) throw new UpdateError('SHA-256 does not match');
    await chmod(dest, 0o755);
  } catch (err) {
    await rm(dest, { force: true });
    throw err instanceof UpdateError ? err : new UpdateError(String((err as Error).message));
  }
}

/**
 * Installs a verified release. In the releases layout the binary lands in
 * releases/<version>/<binary name> and `current` is re-pointed by renaming a fresh symlink over it,
 * so at every instant `current` names either the old or the new release. Under the Windows runner
 * the running script is replaced by a rename over it. Returns where the new agent now lives.
 */
export async function installRelease(
  layout: ManagedLayout,
  manifest: UpdateManifest,
  secret: string,
): Promise<string> {
  if (layout.kind === 'runner') {
    const staged = `${layout.binary}.download-${suffix()}`;
    await downloadVerified(manifest, secret, staged);
    await rename(staged, layout.binary);
    return layout.binary;
  }
  const releaseDir = join(layout.root, 'releases', manifest.version);
  const binary = join(releaseDir, layout.binaryName);
  await mkdir(releaseDir, { recursive: true, mode: 0o755 });
  const staged = join(releaseDir, `.${layout.binaryName}.download-${suffix()}`);
  await downloadVerified(manifest, secret, staged);
  await rename(staged, binary);

  const current = join(layout.root, 'current');
  const link = join(layout.root, `.current-${suffix()}`);
  await symlink(join('releases', manifest.version), link);
  try {
    await rename(link, current);
  } catch (err) {
    await rm(link, { force: true });
    throw new UpdateError(`cannot switch ${current}: ${(err as Error).message}`);
  }
  const now = await readlink(current);
  if (join(layout.root, now) !== releaseDir && now !== releaseDir) {
    throw new UpdateError(`${current} does not point at ${releaseDir} after the switch`);
  }
  return join(dirname(binary), layout.binaryName);
}
