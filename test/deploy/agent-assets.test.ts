import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_ASSET_PATHS, publishAgentAssets } from '../../src/deploy/agent-assets.js';

function fakeBundle(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bundle-'));
  const path = join(dir, 'nodeagent.mjs');
  writeFileSync(path, content);
  return path;
}

describe('publishing the agent bundle under $DASH_HOME/deploy', () => {
  it('writes the Linux and macOS assets for both architectures, executable', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bundle = fakeBundle('#!/usr/bin/env node\n// agent\n');
    const r = publishAgentAssets(home, bundle);
    expect(r).toEqual({ written: [...AGENT_ASSET_PATHS], unchanged: [] });
    expect(AGENT_ASSET_PATHS).toEqual([
      'linux/node_linux_amd64',
      'linux/node_linux_arm64',
      'macos/node_macos_amd64',
      'macos/node_macos_arm64',
    ]);
    for (const rel of AGENT_ASSET_PATHS) {
      const file = join(home, 'deploy', rel);
      expect(readFileSync(file)).toEqual(readFileSync(bundle));
      expect(statSync(file).mode & 0o777).toBe(0o755);
    }
  });

  it('leaves identical assets untouched, so their mtime (digest cache key) stays', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    const bundle = fakeBundle('v1');
    publishAgentAssets(home, bundle);
    const file = join(home, 'deploy', 'linux', 'node_linux_amd64');
    const past = new Date(Date.UTC(2020, 0, 1));
    utimesSync(file, past, past);
    expect(publishAgentAssets(home, bundle).written).toEqual([]);
    expect(statSync(file).mtimeMs).toBe(past.getTime());
  });

  it('replaces assets whose content changed', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    publishAgentAssets(home, fakeBundle('v1'));
    const r = publishAgentAssets(home, fakeBundle('v2'));
    expect(r.written).toHaveLength(4);
    expect(readFileSync(join(home, 'deploy', 'macos', 'node_macos_arm64'), 'utf8')).toBe('v2');
  });

  it('fails clearly when the bundle was not built', () => {
    const home = mkdtempSync(join(tmpdir(), 'dash-home-'));
    expect(() => publishAgentAssets(home, join(home, 'missing.mjs'))).toThrow('npm run build');
  });
});
