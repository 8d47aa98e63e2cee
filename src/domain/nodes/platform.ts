import { AppError } from '../../errors/app-error.js';

export type AgentPlatform = 'linux' | 'macos' | 'windows';

const OS: Record<string, AgentPlatform> = {
  linux: 'linux',
  darwin: 'macos',
  macos: 'macos',
  windows: 'windows',
};
const ARCH: Record<string, 'amd64' | 'arm64'> = {
  amd64: 'amd64',
  x86_64: 'amd64',
  arm64: 'arm64',
  aarch64: 'arm64',
};

/**
 * Path of the agent build for a node's reported OS and architecture, relative to the deploy
 * directory (reference §1.6), e.g. `linux/node_linux_amd64`.
 */
export function agentAssetPath(os: string, arch: string): string {
  const o = os.trim().toLowerCase();
  const a = arch.trim().toLowerCase();
  if (o === '' || a === '') throw new AppError('node_platform_unknown');
  const platform = OS[o];
  const cpu = ARCH[a];
  if (!platform || !cpu) {
    throw new AppError('node_platform_unsupported', `no agent build for ${o}/${a}`);
  }
  return `${platform}/node_${platform}_${cpu}${platform === 'windows' ? '.exe' : ''}`;
}
