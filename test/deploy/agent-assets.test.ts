import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_ASSET_PATHS, publishAgentAssets } from '../../src/deploy/agent-assets.js';
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
