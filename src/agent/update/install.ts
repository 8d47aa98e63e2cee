import { chmod, mkdir, open, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { UpdateManifest } from '../payload.js';
import { defaultTransport, type Transport } from '../push/transport.js';
import { AGENT_USER_AGENT } from '../build-info.js';
import { randomHex } from '../random-hex.js';
import type { ManagedLayout } from './layout.js';

const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export class UpdateError extends Error {}

const suffix = (): string => `${process.pid}-${randomHex(4)}`;

/**
 * Downloads the manifest's asset to `dest` with the node secret, refusing anything but a 200 and
 * stopping as soon as the body exceeds the announced size; afterwards size and SHA-256 must match.
 * The file is created 0755 and removed again on any failure. (The standalone build's fetch asks
 * for gzip and decodes it, so Dash's compressed copy travels; size and digest are of the file.)
 */
export async function downloadVerified(
  manifest: UpdateManifest,
  secret: string,
  dest: string,
  transport: Transport = defaultTransport,
): Promise<void> {
  const res = await transport(new URL(manifest.url), {
    method: 'GET',
    headers: { 'X-Node-Secret': secret, 'User-Agent': AGENT_USER_AGENT },
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
  });
  if (res.status !== 200) {
    res.discard();
    throw new UpdateError(`download answered ${res.status}`);
  }
  // Loaded here, not at start: updates are rare and node:crypto is large in the standalone build.
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  let size = 0;
  let file;
  try {
    file = await open(dest, 'wx', 0o755);
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > manifest.size) {
        res.discard();
        throw new UpdateError(`download is larger than ${manifest.size} bytes`);
      }
      hash.update(chunk);
      // writeFile continues at the current position and writes the whole chunk.
      await file.writeFile(chunk);
    }
    await file.close();
    file = undefined;
    if (size !== manifest.size) {
      throw new UpdateError(`download has ${size} bytes, manifest says ${manifest.size}`);
    }
    const digest = hash.digest('hex');
    if (digest !== manifest.sha256.toLowerCase()) throw new UpdateError('SHA-256 does not match');
    await chmod(dest, 0o755);
  } catch (err) {
    await file?.close().catch(() => undefined);
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
