import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AGENT_ASSET_PATHS,
  DIGEST_CACHE_FILE,
  publishAgentAssets,
} from '../../src/deploy/agent-assets.js';
import { AGENT_TARGETS } from '../../src/deploy/agent-targets.js';
import { fakeBuild } from '../support/exe-headers.js';

function binDir(tag: string, only?: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bin-'));
  for (const t of AGENT_TARGETS) {
    if (only && !only.includes(t.id)) continue;
    const file = join(dir, t.asset);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, fakeBuild(t, tag));
  }
  return dir;
}

describe('publishing the standalone agents under $DASH_HOME/deploy', () => {
  it('publishes every built target under its asset name, executable', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bins = binDir('v1');
    const r = publishAgentAssets(home, bins);
    expect(r).toEqual({
      written: [...AGENT_ASSET_PATHS],
      unchanged: [],
      missing: [],
      rejected: [],
      hashed: AGENT_ASSET_PATHS.length,
    });
    for (const rel of AGENT_ASSET_PATHS) {
      const file = join(home, 'deploy', rel);
      expect(readFileSync(file)).toEqual(readFileSync(join(bins, rel)));
      expect(statSync(file).mode & 0o777).toBe(0o755);
    }
  });

  it('reports targets that were not built and publishes the rest', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const r = publishAgentAssets(home, binDir('v1', ['linux-amd64']));
    expect(r.written).toEqual(['linux/node_linux_amd64']);
    expect(r.missing).toHaveLength(AGENT_TARGETS.length - 1);
    expect(existsSync(join(home, 'deploy', 'linux', 'node_linux_arm64'))).toBe(false);
  });

  it('refuses a build whose header does not match its target', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bins = binDir('v1', ['linux-arm64']);
    const armMusl = AGENT_TARGETS.find((t) => t.id === 'linux-arm64')!;
    writeFileSync(join(bins, 'linux', 'node_linux_arm64_musl'), fakeBuild(armMusl, 'glibc'));
    mkdirSync(join(bins, 'windows'), { recursive: true });
    writeFileSync(join(bins, 'windows', 'node_windows_amd64.exe'), '#!/bin/sh\n');
    const r = publishAgentAssets(home, bins);
    expect(r.rejected).toEqual([
      'linux/node_linux_arm64_musl: links glibc, expected musl',
      'windows/node_windows_amd64.exe: not an executable (no ELF, Mach-O or PE header)',
    ]);
    expect(existsSync(join(home, 'deploy', 'linux', 'node_linux_arm64_musl'))).toBe(false);
  });

  it('leaves identical assets untouched, so their mtime (digest cache key) stays', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bins = binDir('v1');
    publishAgentAssets(home, bins);
    const file = join(home, 'deploy', 'linux', 'node_linux_amd64');
    const past = new Date(Date.UTC(2020, 0, 1));
    utimesSync(file, past, past);
    expect(publishAgentAssets(home, bins).written).toEqual([]);
    expect(statSync(file).mtimeMs).toBe(past.getTime());
  });

  it('reads no build on a start where nothing changed (digests cached by size, mtime, inode)', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bins = binDir('v1');
    for (const rel of AGENT_ASSET_PATHS.slice(0, 2)) writeFileSync(join(bins, `${rel}.gz`), rel);
    expect(publishAgentAssets(home, bins).hashed).toBe(AGENT_ASSET_PATHS.length + 2);
    const again = publishAgentAssets(home, bins);
    expect(again).toMatchObject({ written: [], hashed: 0 });
    expect(again.unchanged).toHaveLength(AGENT_ASSET_PATHS.length);
    // A new build arrives by rename (new inode, new mtime): only it is read, and published.
    const t = AGENT_TARGETS[1]!;
    const file = join(bins, t.asset);
    writeFileSync(`${file}.new`, fakeBuild(t, 'v2-longer'));
    renameSync(`${file}.new`, file);
    const third = publishAgentAssets(home, bins);
    expect(third).toMatchObject({ written: [t.asset], hashed: 1 });
    expect(readFileSync(join(home, 'deploy', t.asset))).toEqual(readFileSync(file));
    // A lost or corrupt cache only costs a re-read.
    writeFileSync(join(home, DIGEST_CACHE_FILE), '{not json');
    expect(publishAgentAssets(home, bins)).toMatchObject({
      written: [],
      hashed: 2 * AGENT_ASSET_PATHS.length + 4,
    });
  });

  it('replaces changed assets and publishes the gzip copy next to its binary', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    publishAgentAssets(home, binDir('v1'));
    const bins = binDir('v2');
    writeFileSync(join(bins, 'macos', 'node_macos_arm64.gz'), 'gz of v2');
    const r = publishAgentAssets(home, bins);
    expect(r.written).toHaveLength(AGENT_TARGETS.length);
    const dest = join(home, 'deploy', 'macos', 'node_macos_arm64');
    expect(readFileSync(dest, 'latin1').endsWith('v2')).toBe(true);
    expect(readFileSync(`${dest}.gz`, 'utf8')).toBe('gz of v2');
  });
});
