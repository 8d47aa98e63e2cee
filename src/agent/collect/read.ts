import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

/** Contents of a procfs/sysfs file, or undefined when it does not exist or cannot be read. */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** First line of a sysfs attribute, trimmed; undefined when absent or empty. */
export function readAttr(path: string): string | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  const value = text.split('\n', 1)[0]!.trim();
  return value === '' ? undefined : value;
}

/** A sysfs attribute holding one integer; undefined when absent or not a number. */
export function readInt(path: string): number | undefined {
  const value = readAttr(path);
  if (value === undefined || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

export function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

export function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

const lineBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * Number of newline characters in a file, read through one reused buffer: counting sockets in
 * /proc/net/tcp on a busy host must not allocate the whole table every few seconds.
 */
export function countLines(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    let lines = 0;
    for (;;) {
      const n = readSync(fd, lineBuffer, 0, lineBuffer.length, null);
      if (n === 0) return lines;
      for (let i = 0; i < n; i++) if (lineBuffer[i] === 0x0a) lines++;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Splits on runs of whitespace, dropping empty fields. */
export function fields(line: string): string[] {
  return line.trim().split(/\s+/).filter(Boolean);
}
