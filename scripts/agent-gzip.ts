// The gzip copies of the standalone agents, which Dash serves to clients that accept gzip.
//
// Two encoders, both writing a plain RFC 1952 gzip stream that any client decodes:
// - fast: zlib level 9 (seconds; what `make run` uses for this machine's build);
// - max: 7-Zip's Deflate encoder at -mx=7 (7zip-bin from npm), about 4 % smaller than zlib -9 on
//   these executables: enough to bring the glibc and Windows arm64 builds under 50 MB. It takes
//   about 90 s per build, so outputs are cached by the executable's SHA-256 and reused by every
//   later build of the same bytes, and builds compress in parallel.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync, constants as zlib } from 'node:zlib';
import sevenZip from '7zip-bin';

export type GzipMethod = 'fast' | 'max';

/** Cached copies kept (newest first): every target twice over. */
const KEEP = 24;

const run = promisify(execFile);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** 7-Zip from the 7zip-bin package; npm does not keep its executable bit on every system. */
function sevenZipPath(): string {
  const exe = sevenZip.path7za;
  try {
    accessSync(exe, constants.X_OK);
  } catch {
    chmodSync(exe, 0o755);
  }
  return exe;
}

async function compress(file: string, method: GzipMethod, dest: string): Promise<void> {
  const temp = `${dest}.tmp-${process.pid}`;
  rmSync(temp, { force: true });
  if (method === 'fast') {
    writeFileSync(
      temp,
      gzipSync(readFileSync(file), { level: zlib.Z_BEST_COMPRESSION, memLevel: 9 }),
    );
  } else {
    // -tgzip writes a single-member gzip file; the member is named after the input file.
    await run(sevenZipPath(), ['a', '-tgzip', '-mx=7', '-bd', temp, file], {
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  renameSync(temp, dest);
}

/** Drops all but the KEEP newest cached copies. */
function prune(cacheDir: string): void {
  const entries = readdirSync(cacheDir)
    .filter((f) => f.endsWith('.gz'))
    .map((f) => ({ f, t: statSync(join(cacheDir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of entries.slice(KEEP)) rmSync(join(cacheDir, f), { force: true });
}

export interface GzipResult {
  method: GzipMethod;
  /** The copy came from the cache (no compression ran). */
  reused: boolean;
  bytes: number;
}

/**
 * Writes `<file>.gz` with the requested method, or with `max` when a max copy of the same bytes
 * is cached already (never a worse one). Cached copies live in `cacheDir` as
 * `<sha256>.<method>.gz`; `<file>.gz.key` names the copy `<file>.gz` holds, so an unchanged
 * file costs one hash.
 */
export async function gzipAgent(
  file: string,
  method: GzipMethod,
  cacheDir: string,
): Promise<GzipResult> {
  mkdirSync(cacheDir, { recursive: true });
  const digest = await sha256Of(file);
  const cached = (m: GzipMethod) => join(cacheDir, `${digest}.${m}.gz`);
  const order: GzipMethod[] = method === 'max' ? ['max'] : ['max', 'fast'];
  let use = order.find((m) => existsSync(cached(m)));
  const reused = use !== undefined;
  if (!use) {
    await compress(file, method, cached(method));
    use = method;
  }
  const source = cached(use);
  const keyFile = `${file}.gz.key`;
  const key = `${digest} ${use}\n`;
  const gz = `${file}.gz`;
  if (!existsSync(gz) || !existsSync(keyFile) || readFileSync(keyFile, 'utf8') !== key) {
    const temp = `${gz}.tmp-${process.pid}`;
    copyFileSync(source, temp);
    renameSync(temp, gz);
    writeFileSync(keyFile, key);
  }
  prune(cacheDir);
  return { method: use, reused, bytes: statSync(gz).size };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
