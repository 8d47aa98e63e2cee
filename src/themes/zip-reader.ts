import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ALLOWED_FILES, IGNORED_PREFIX, THEME_LIMITS } from '../domain/themes/limits.js';
import { invalidPackage } from '../domain/themes/package-error.js';

/** The archive limits; tests pass smaller ones to exercise the totals cheaply. */
export type ZipLimits = Record<
  'zipBytes' | 'maxEntries' | 'fileBytes' | 'totalBytes' | 'maxRatio' | 'ratioFloorBytes',
  number
>;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;

function openZip(zip: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      zip,
      // validateEntrySizes: a stream yielding more or fewer bytes than its header says errors.
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (err, zipfile) => (err ? reject(err) : resolve(zipfile)),
    );
  });
}

function openStream(zipfile: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
  });
}

/** Reads a stream into memory, giving up as soon as it passes `limit` bytes. */
async function readAtMost(stream: Readable, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      throw invalidPackage(`${name} expands beyond its size limit`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function isSymlink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function hasFileType(entry: Entry): boolean {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return type === 0 || type === S_IFREG;
}

/** Checks an entry's header before a byte of it is inflated. */
function checkEntry(
  entry: Entry,
  seen: Set<string>,
  declaredTotal: number,
  limits: ZipLimits,
): void {
  const name = entry.fileName;
  if (isSymlink(entry)) throw invalidPackage(`${name} is a symbolic link`);
  if (name.endsWith('/') || name.includes('/')) {
    throw invalidPackage(`${name}: packages hold flat file names only, no directories`);
  }
  if (!hasFileType(entry)) throw invalidPackage(`${name} is not a regular file`);
  if (!ALLOWED_FILES.has(name)) {
    throw invalidPackage(`${name} is not an allowed file (${[...ALLOWED_FILES].join(', ')})`);
  }
  if (seen.has(name)) throw invalidPackage(`${name} appears twice`);
  if (entry.isEncrypted()) throw invalidPackage(`${name} is encrypted`);
  const size = entry.uncompressedSize;
  if (size > limits.fileBytes) throw invalidPackage(`${name} is larger than the file limit`);
  if (declaredTotal + size > limits.totalBytes) {
    throw invalidPackage('the files together are larger than the total limit');
  }
  const compressed = Math.max(entry.compressedSize, 1);
  if (size > limits.ratioFloorBytes && size / compressed > limits.maxRatio) {
    throw invalidPackage(`${name} has a suspicious compression ratio (zip bomb)`);
  }
}

/**
 * Extracts a theme zip into memory, entry by entry, refusing anything outside the package rules
 * (reference §9.3 plus a compression-ratio guard) before inflating it. Nothing touches the disk:
 * a refused package leaves nothing behind.
 */
export async function readThemeZip(
  zip: Buffer,
  limits: ZipLimits = THEME_LIMITS,
): Promise<Map<string, Buffer>> {
  if (zip.length > limits.zipBytes) throw invalidPackage('the zip is larger than 20 MiB');
  let zipfile: ZipFile;
  try {
    zipfile = await openZip(zip);
  } catch (err) {
    throw invalidPackage(`not a readable zip archive (${(err as Error).message})`);
  }
  try {
    if (zipfile.entryCount > limits.maxEntries) {
      throw invalidPackage(`more than ${limits.maxEntries} entries`);
    }
    const files = new Map<string, Buffer>();
    let total = 0;
    for (;;) {
      const entry = await nextEntry(zipfile);
      if (!entry) break;
      if (entry.fileName.startsWith(IGNORED_PREFIX)) continue;
      checkEntry(entry, new Set(files.keys()), total, limits);
      total += entry.uncompressedSize;
      const limit = Math.min(entry.uncompressedSize, limits.fileBytes);
      files.set(
        entry.fileName,
        await readAtMost(await openStream(zipfile, entry), limit, entry.fileName),
      );
    }
    return files;
  } catch (err) {
    if ((err as { code?: string }).code === 'invalid_theme_package') throw err;
    throw invalidPackage(`not a readable zip archive (${(err as Error).message})`);
  } finally {
    zipfile.close();
  }
}

/** The next entry, null at the end; yauzl's own checks (absolute, `..`, `\`) reject here. */
function nextEntry(zipfile: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zipfile.off('entry', onEntry);
      zipfile.off('end', onEnd);
      zipfile.off('error', onError);
    };
    const onEntry = (e: Entry) => {
      cleanup();
      resolve(e);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    zipfile.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zipfile.readEntry();
  });
}
