import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { publishRelease } from '../../src/updater/publish.js';
import { defaultPublicKeyFile } from '../../src/updater/create.js';
import {
  installLayout,
  switchCurrent,
  writeLauncher,
  writeStamp,
} from '../../src/updater/layout.js';
import type { ReleaseChannel, SignedManifest } from '../../src/updater/manifest.js';

export interface ReleaseKeys {
  privateKey: KeyObject;
  publicPem: string;
}

export function releaseKeys(): ReleaseKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A tiny but complete release tree: bin/dash prints its version, like the real one. */
export function fakeReleaseTree(dir: string, version: string): void {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'bin', 'dash'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  writeFileSync(join(dir, 'dist', 'main.js'), `// dash ${version}\n`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'dash', version }));
}

export async function publishFake(
  feedDir: string,
  version: string,
  keys: ReleaseKeys,
  opts: { notes?: string; channel?: ReleaseChannel; tree?: (dir: string) => void } = {},
): Promise<SignedManifest> {
  const stage = mkdtempSync(join(tmpdir(), 'dash-stage-'));
  fakeReleaseTree(stage, version);
  opts.tree?.(stage);
  return publishRelease({
    stageDir: stage,
    outDir: feedDir,
    version,
    notes: opts.notes ?? `Dash ${version}\n\n- fixes`,
    nodeVersion: '0.3.0',
    privateKey: keys.privateKey,
    publishedAt: '2026-11-21T12:00:00Z',
    ...(opts.channel ? { channel: opts.channel } : {}),
  });
}

/** A DASH_HOME with an installed layout running `version`, and the key pinned. */
export async function installedHome(version: string, keys: ReleaseKeys): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
  const layout = installLayout(home);
  const dir = join(layout.releasesDir, version);
  fakeReleaseTree(dir, version);
  await writeStamp(dir, { version, sha256: '0'.repeat(64), installed_at: '2026-11-01T00:00:00Z' });
  await switchCurrent(layout, dir);
  await writeLauncher(layout);
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(defaultPublicKeyFile(home), keys.publicPem);
  return home;
}

export const runningRootOf = (home: string) => realpathSync(join(home, 'current'));

/** Serves a feed directory over HTTP, as a remote release server would. */
export async function serveFeed(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    if (name.includes('/') || name.includes('..')) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, name)).then(
      (body) => res.writeHead(200).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/`, server };
}
