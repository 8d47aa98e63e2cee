import { describe, expect, it } from 'vitest';
import { agentAssetPath } from '../../../src/domain/nodes/platform.js';
import type { AppError } from '../../../src/errors/app-error.js';

describe('agent asset for a platform', () => {
  it.each([
    ['linux', 'x86_64', 'linux/node_linux_amd64'],
    ['Linux', 'aarch64', 'linux/node_linux_arm64'],
    ['darwin', 'arm64', 'macos/node_macos_arm64'],
    ['macos', 'amd64', 'macos/node_macos_amd64'],
    ['windows', 'amd64', 'windows/node_windows_amd64.exe'],
    ['windows', 'arm64', 'windows/node_windows_arm64.exe'],
  ])('%s/%s → %s', (os, arch, path) => {
    expect(agentAssetPath(os, arch)).toBe(path);
  });

  it.each([
    ['', 'amd64', 'node_platform_unknown'],
    ['linux', ' ', 'node_platform_unknown'],
    ['freebsd', 'amd64', 'node_platform_unsupported'],
    ['linux', 'riscv64', 'node_platform_unsupported'],
  ])('%j/%j → %s', (os, arch, code) => {
    expect(() => agentAssetPath(os, arch)).toThrow(expect.objectContaining({ code }) as AppError);
  });
});
