import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentClock } from '../../../src/agent/clock.js';
import type { FsStats, StatFs } from '../../../src/agent/collect/disk.js';
import { hostPathsUnder, type HostPaths } from '../../../src/agent/collect/host-paths.js';
import type { AgentLog } from '../../../src/agent/log.js';

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

export function fixturePaths(kernel: string): HostPaths {
  return hostPathsUnder(join(FIXTURES, kernel));
}

/** A writable copy of a fixture tree, for tests that move counters between samples. */
export function copyFixture(kernel: string): { root: string; paths: HostPaths } {
  const root = mkdtempSync(join(tmpdir(), `agent-${kernel}-`));
  cpSync(join(FIXTURES, kernel), root, { recursive: true, verbatimSymlinks: true });
  return { root, paths: hostPathsUnder(root) };
}

/** Wall and monotonic time moved by hand. */
export class FakeAgentClock implements AgentClock {
  constructor(
    private wall = Date.UTC(2026, 10, 21, 12, 0, 0),
    private mono = 1_000,
  ) {}
  now(): number {
    return this.wall;
  }
  monotonic(): number {
    return this.mono;
  }
  advance(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }
}

/** statfs answers for a recorded tree: one entry per mountpoint, 4 KiB blocks. */
export function fakeStatfs(byMountpoint: Record<string, Partial<FsStats>>): StatFs {
  return async (mountpoint) => {
    const s = byMountpoint[mountpoint];
    if (!s) return undefined;
    return {
      bsize: 4096,
      blocks: 1_000_000,
      bfree: 600_000,
      bavail: 550_000,
      files: 65_536,
      ffree: 60_000,
      ...s,
    };
  };
}

/** statfs that knows every mountpoint (same figures everywhere). */
export const anyStatfs: StatFs = async () => ({
  bsize: 4096,
  blocks: 1_000_000,
  bfree: 600_000,
  bavail: 550_000,
  files: 65_536,
  ffree: 60_000,
});

/** A log that keeps its lines for assertions. */
export class MemoryLog implements AgentLog {
  readonly lines: string[] = [];
  debug(msg: string): void {
    this.lines.push(`debug: ${msg}`);
  }
  info(msg: string): void {
    this.lines.push(`info: ${msg}`);
  }
  warn(msg: string): void {
    this.lines.push(`warn: ${msg}`);
  }
  error(msg: string): void {
    this.lines.push(`error: ${msg}`);
  }
  count(level: string, fragment: string): number {
    return this.lines.filter((l) => l.startsWith(`${level}:`) && l.includes(fragment)).length;
  }
}
