import { join } from 'node:path';

/**
 * Where the collectors read the host from. Production uses the real roots; tests point them at
 * recorded trees (test/agent/fixtures/<kernel>/{proc,sys,etc}).
 */
export interface HostPaths {
  proc: string;
  sys: string;
  etc: string;
}

export const LIVE_HOST: HostPaths = { proc: '/proc', sys: '/sys', etc: '/etc' };

/** A recorded tree laid out as <root>/proc, <root>/sys and <root>/etc. */
export function hostPathsUnder(root: string): HostPaths {
  return { proc: join(root, 'proc'), sys: join(root, 'sys'), etc: join(root, 'etc') };
}
