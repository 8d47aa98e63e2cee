/**
 * `make release`: stages a complete Dash release (server build, web build, production
 * dependencies, agent builds) and publishes it as a signed bundle into a feed directory.
 *
 *   DASH_RELEASE_KEY_FILE   Ed25519 private key (PKCS#8 PEM). Without it a development key is
 *                           generated once in release/dev-signing-key.pem (never for production).
 *   DASH_RELEASE_OUT        feed directory (default release/feed)
 *   DASH_RELEASE_NOTES      file with the release notes (default RELEASE_NOTES.md if present)
 *   DASH_RELEASE_VERSION    version to stamp (default package.json's)
 * See docs/operations.md.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { publishRelease } from '../src/updater/publish.js';
import { AGENT_VERSION } from '../src/agent/version.js';
import { systemClock } from '../src/platform/clock.js';
import { rfc3339Seconds } from '../src/updater/job-store.js';

const root = resolve(import.meta.dirname, '..');
const env = process.env;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const version = env.DASH_RELEASE_VERSION?.trim() || pkg.version;
const out = resolve(env.DASH_RELEASE_OUT?.trim() || join(root, 'release', 'feed'));

function privateKey() {
  const file = env.DASH_RELEASE_KEY_FILE?.trim();
  if (file) return createPrivateKey(readFileSync(file));
  const dev = join(root, 'release', 'dev-signing-key.pem');
  if (!existsSync(dev)) {
    mkdirSync(join(root, 'release'), { recursive: true });
    const { privateKey: k } = generateKeyPairSync('ed25519');
    writeFileSync(dev, k.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    process.stderr.write(`make release: generated a DEVELOPMENT signing key in ${dev}\n`);
  }
  const k = createPrivateKey(readFileSync(dev));
  writeFileSync(
    join(root, 'release', 'dev-signing-key.pub.pem'),
    createPublicKey(k).export({ type: 'spki', format: 'pem' }),
  );
  return k;
}

for (const need of ['dist/main.js', 'dist/agent', 'web/dist/index.html']) {
  if (!existsSync(join(root, need))) throw new Error(`${need} is missing: run make build first`);
}
const stage = join(root, 'release', 'stage');
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'web'), { recursive: true });
cpSync(join(root, 'bin'), join(stage, 'bin'), { recursive: true });
cpSync(join(root, 'dist'), join(stage, 'dist'), { recursive: true });
cpSync(join(root, 'web', 'dist'), join(stage, 'web', 'dist'), { recursive: true });
cpSync(join(root, 'templates'), join(stage, 'templates'), { recursive: true });
writeFileSync(join(stage, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2) + '\n');
// Production dependencies exactly as installed here (native builds included), no dev tools.
const prod = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root })
  .toString()
  .split('\n')
  .filter((p) => p.includes('node_modules'));
for (const dir of prod) {
  const rel = relative(root, dir);
  if (rel.split('/').filter((s) => s === 'node_modules').length > 1) continue;
  cpSync(dir, join(stage, rel), { recursive: true, filter: (src) => !src.includes('/.bin') });
}
mkdirSync(out, { recursive: true });
const notesFile = env.DASH_RELEASE_NOTES?.trim() || join(root, 'RELEASE_NOTES.md');
const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8') : `Dash ${version}`;
const signed = await publishRelease({
  stageDir: stage,
  outDir: out,
  version,
  notes,
  nodeVersion: AGENT_VERSION,
  privateKey: privateKey(),
  publishedAt: rfc3339Seconds(systemClock.now()),
});
process.stdout.write(
  `release ${version}: ${join(out, signed.manifest.bundle)} (${signed.manifest.size} bytes, sha256 ${signed.manifest.sha256})\n`,
);
