/**
 * Random hex for temporary file names, from the global Web Crypto: importing node:crypto for
 * this alone would keep a few more MiB of the standalone agent resident (bench/agent).
 */
export function randomHex(bytes: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
