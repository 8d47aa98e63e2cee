import type { AgentTarget } from '../../src/deploy/agent-targets.js';

/** A minimal 64-bit little-endian ELF header with one PT_INTERP program header. */
export function elf(machine: number, interp: string): Buffer {
  const buf = Buffer.alloc(0x200);
  buf.writeUInt32BE(0x7f454c46, 0);
  buf[4] = 2;
  buf[5] = 1;
  buf.writeUInt16LE(machine, 0x12);
  buf.writeBigUInt64LE(0x40n, 0x20); // e_phoff
  buf.writeUInt16LE(0x38, 0x36); // e_phentsize
  buf.writeUInt16LE(1, 0x38); // e_phnum
  buf.writeUInt32LE(3, 0x40); // PT_INTERP
  buf.writeBigUInt64LE(0x100n, 0x48);
  buf.writeBigUInt64LE(BigInt(interp.length + 1), 0x60);
  buf.write(interp, 0x100, 'latin1');
  return buf;
}

export function macho(cpu: number): Buffer {
  const buf = Buffer.alloc(32);
  buf.writeUInt32LE(0xfeedfacf, 0);
  buf.writeUInt32LE(cpu, 4);
  return buf;
}

export function pe(machine: number): Buffer {
  const buf = Buffer.alloc(0x100);
  buf.write('MZ', 0, 'latin1');
  buf.writeUInt32LE(0x80, 0x3c);
  buf.writeUInt32BE(0x50450000, 0x80);
  buf.writeUInt16LE(machine, 0x84);
  return buf;
}

/** A fake build whose header matches the target (what the publisher checks). */
export function fakeBuild(t: AgentTarget, tag: string): Buffer {
  const arch = t.arch === 'amd64';
  const head =
    t.format === 'elf'
      ? elf(arch ? 0x3e : 0xb7, t.libc === 'musl' ? '/lib/ld-musl-x.so.1' : '/lib/ld-linux.so.2')
      : t.format === 'macho'
        ? macho(arch ? 0x01000007 : 0x0100000c)
        : pe(arch ? 0x8664 : 0xaa64);
  return Buffer.concat([head, Buffer.from(tag)]);
}
