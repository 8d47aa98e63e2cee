import type { AgentTarget } from './agent-targets.js';
import { readExecutableFormat, type ExecutableFormat } from './executable-format.js';

/** Why a file's header does not match what the target needs, or null when it does. */
export function formatProblem(t: AgentTarget, f: ExecutableFormat | null): string | null {
  if (!f) return 'not an executable (no ELF, Mach-O or PE header)';
  if (f.format !== t.format) return `is ${f.format}, expected ${t.format}`;
  if (f.arch !== t.arch) return `is built for ${f.arch}, expected ${t.arch}`;
  if (t.format === 'elf') {
    const libc = t.libc ?? 'glibc';
    if (f.libc !== libc) return `links ${f.libc ?? 'no C library'}, expected ${libc}`;
  }
  return null;
}

/** Checks a built or published agent executable against its target. */
export function agentBinaryProblem(t: AgentTarget, path: string): string | null {
  try {
    return formatProblem(t, readExecutableFormat(path));
  } catch (err) {
    return `cannot be read: ${(err as Error).message}`;
  }
}
