import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentBinaryProblem, formatProblem } from '../../src/deploy/agent-binaries.js';
import { AGENT_TARGETS, hostAgentTarget } from '../../src/deploy/agent-targets.js';
import { parseExecutableHeader } from '../../src/deploy/executable-format.js';
import { buildHostAgent } from '../support/agent-binary.js';
import { elf, macho, pe } from '../support/exe-headers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const target = (id: string) => AGENT_TARGETS.find((t) => t.id === id)!;

describe('reading executable headers', () => {
  it('tells ELF machines and C libraries apart', () => {
    expect(parseExecutableHeader(elf(0x3e, '/lib64/ld-linux-x86-64.so.2'))).toEqual({
      format: 'elf',
      arch: 'amd64',
      libc: 'glibc',
    });
    expect(parseExecutableHeader(elf(0xb7, '/lib/ld-musl-aarch64.so.1'))).toEqual({
      format: 'elf',
      arch: 'arm64',
      libc: 'musl',
    });
    expect(parseExecutableHeader(elf(0x28, '/lib/ld-linux.so.3'))?.arch).toBe('other');
  });

  it('reads Mach-O CPU types and PE machines', () => {
    expect(parseExecutableHeader(macho(0x0100000c))).toEqual({ format: 'macho', arch: 'arm64' });
    expect(parseExecutableHeader(macho(0x01000007))).toEqual({ format: 'macho', arch: 'amd64' });
    expect(parseExecutableHeader(pe(0xaa64))).toEqual({ format: 'pe', arch: 'arm64' });
    expect(parseExecutableHeader(pe(0x8664))).toEqual({ format: 'pe', arch: 'amd64' });
  });

  it('returns null for scripts and truncated files', () => {
    expect(parseExecutableHeader(Buffer.from('#!/usr/bin/env node\nconsole.log(1)\n'))).toBeNull();
    expect(parseExecutableHeader(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))).toBeNull();
    const badPe = pe(0x8664);
    badPe.writeUInt32BE(0, 0x80);
    expect(parseExecutableHeader(badPe)).toBeNull();
  });

  it('names what is wrong with a build for its target', () => {
    const glibcArm = parseExecutableHeader(elf(0xb7, '/lib/ld-linux-aarch64.so.1'));
    expect(formatProblem(target('linux-arm64'), glibcArm)).toBeNull();
    expect(formatProblem(target('linux-arm64-musl'), glibcArm)).toBe('links glibc, expected musl');
    expect(formatProblem(target('linux-amd64'), glibcArm)).toBe(
      'is built for arm64, expected amd64',
    );
    expect(formatProblem(target('windows-arm64'), glibcArm)).toBe('is elf, expected pe');
    expect(formatProblem(target('macos-arm64'), null)).toMatch(/not an executable/);
  });
});

describe('the standalone agent builds', () => {
  let hostBinary: string;
  beforeAll(() => {
    hostBinary = buildHostAgent();
  }, 120_000);

  it('uses the asset names of the spec and the install scripts', () => {
    expect(AGENT_TARGETS.map((t) => t.asset)).toEqual([
      'linux/node_linux_amd64',
      'linux/node_linux_arm64',
      'linux/node_linux_amd64_musl',
      'linux/node_linux_arm64_musl',
      'macos/node_macos_amd64',
      'macos/node_macos_arm64',
      'windows/node_windows_amd64.exe',
      'windows/node_windows_arm64.exe',
    ]);
  });

  it("builds this machine's agent with the header of its platform", () => {
    expect(agentBinaryProblem(hostAgentTarget()!, hostBinary)).toBeNull();
  });

  // `make agents` builds every target into dist/agent/bin; each one present must match.
  it.each(AGENT_TARGETS.map((t) => [t.id, t] as const))('%s (when built) matches', (_, t) => {
    const file = join(ROOT, 'dist', 'agent', 'bin', t.asset);
    if (!existsSync(file)) return;
    expect(agentBinaryProblem(t, file)).toBeNull();
  });
});
