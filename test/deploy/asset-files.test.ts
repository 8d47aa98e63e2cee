import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentAssetFiles } from '../../src/deploy/asset-files.js';
import { tempHome } from '../support/build-app.js';

function deployDir() {
  const home = tempHome();
  const root = join(home, 'deploy');
  mkdirSync(join(root, 'linux'), { recursive: true });
  writeFileSync(join(home, 'outside'), 'secret');
  return { home, root };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('agent asset files', () => {
  it('describes a file with its digest and size, recomputing only when it changes', async () => {
    const { root } = deployDir();
    const file = join(root, 'linux', 'node_linux_amd64');
    writeFileSync(file, 'build one');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const assets = new AgentAssetFiles(root);
    expect(await assets.describe('linux/node_linux_amd64')).toEqual({
      sha256: sha('build one'),
      size: 9,
    });
    // Same size and mtime: the cached digest is served even though the bytes differ.
    writeFileSync(file, 'build two');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect((await assets.describe('linux/node_linux_amd64'))?.sha256).toBe(sha('build one'));
    writeFileSync(file, 'build three');
    expect(await assets.describe('linux/node_linux_amd64')).toEqual({
      sha256: sha('build three'),
      size: 11,
    });
  });

  it('finds nothing for missing files, directories and a missing deploy directory', async () => {
    const { root, home } = deployDir();
    const assets = new AgentAssetFiles(root);
    expect(await assets.describe('linux/node_linux_arm64')).toBeNull();
    expect(await assets.locate('linux')).toBeNull();
    expect(await new AgentAssetFiles(join(home, 'nope')).describe('linux/x')).toBeNull();
  });

  it('never leaves the deploy directory', async () => {
    const { root, home } = deployDir();
    symlinkSync(join(home, 'outside'), join(root, 'linux', 'escape'));
    writeFileSync(join(root, 'linux', 'inside'), 'ok');
    symlinkSync(join(root, 'linux', 'inside'), join(root, 'linux', 'alias'));
    const assets = new AgentAssetFiles(root);
    for (const path of ['../outside', 'linux/../../outside', 'linux/escape', '/etc/passwd', '']) {
      expect(await assets.locate(path), path).toBeNull();
    }
    expect(await assets.locate('linux\\..\\..\\outside')).toBeNull();
    expect((await assets.locate('linux/alias'))?.size).toBe(2);
  });
});
