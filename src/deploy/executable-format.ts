import { closeSync, openSync, readSync } from 'node:fs';

export interface ExecutableFormat {
  format: 'elf' | 'macho' | 'pe';
  arch: 'amd64' | 'arm64' | 'other';
  /** ELF only: the C library its program interpreter belongs to. */
  libc?: 'glibc' | 'musl';
}

const ELF_MACHINE: Record<number, ExecutableFormat['arch']> = { 0x3e: 'amd64', 0xb7: 'arm64' };
const MACHO_CPU: Record<number, ExecutableFormat['arch']> = {
  0x01000007: 'amd64',
  0x0100000c: 'arm64',
};
const PE_MACHINE: Record<number, ExecutableFormat['arch']> = { 0x8664: 'amd64', 0xaa64: 'arm64' };

/** Program interpreter of a 64-bit little-endian ELF (PT_INTERP), or undefined. */
function elfInterpreter(buf: Buffer): string | undefined {
  const phoff = Number(buf.readBigUInt64LE(0x20));
  const phentsize = buf.readUInt16LE(0x36);
  const phnum = buf.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + 0x38 > buf.length) return undefined;
    if (buf.readUInt32LE(at) !== 3) continue; // PT_INTERP
    const off = Number(buf.readBigUInt64LE(at + 0x08));
    const size = Number(buf.readBigUInt64LE(at + 0x20));
    if (off + size > buf.length) return undefined;
    return buf
      .subarray(off, off + size)
      .toString('latin1')
      .replace(/\0+$/, '');
  }
  return undefined;
}

/**
 * Reads what kind of executable a file header describes: ELF (with its machine and C library),
 * Mach-O 64-bit, or PE/COFF. Returns null for anything else (a script, a truncated download).
 */
export function parseExecutableHeader(buf: Buffer): ExecutableFormat | null {
  if (buf.length >= 0x40 && buf.readUInt32BE(0) === 0x7f454c46) {
    if (buf[4] !== 2 || buf[5] !== 1) return null; // 64-bit little-endian only
    const interp = elfInterpreter(buf);
    return {
      format: 'elf',
      arch: ELF_MACHINE[buf.readUInt16LE(0x12)] ?? 'other',
      ...(interp ? { libc: interp.includes('musl') ? 'musl' : 'glibc' } : {}),
    };
  }
  if (buf.length >= 8 && buf.readUInt32LE(0) === 0xfeedfacf) {
    return { format: 'macho', arch: MACHO_CPU[buf.readUInt32LE(4)] ?? 'other' };
  }
  if (buf.length >= 0x40 && buf.readUInt16BE(0) === 0x4d5a) {
    const pe = buf.readUInt32LE(0x3c);
    if (pe + 6 > buf.length || buf.readUInt32BE(pe) !== 0x50450000) return null;
    return { format: 'pe', arch: PE_MACHINE[buf.readUInt16LE(pe + 4)] ?? 'other' };
  }
  return null;
}

/** The header of an executable file (the first 64 KiB hold every field read above). */
export function readExecutableFormat(path: string): ExecutableFormat | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return parseExecutableHeader(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}
