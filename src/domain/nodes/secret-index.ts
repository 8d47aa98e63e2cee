import { sha256Hex, safeEqual } from '../../platform/crypto.js';

/**
 * In-memory map from node secret to node id, used by every X-Node-Secret check. It is loaded
 * from the store at start and updated in the same step as every secret change or deletion, so
 * a rotated or deleted secret stops working at once. Only SHA-256 digests are held.
 */
export class NodeSecretIndex {
  private readonly byHash = new Map<string, number>();
  private readonly hashById = new Map<number, string>();

  static hash(secret: string): string {
    return sha256Hex(secret);
  }

  load(entries: Iterable<{ id: number; secretHash: string }>): void {
    this.byHash.clear();
    this.hashById.clear();
    for (const e of entries) this.setHash(e.id, e.secretHash);
  }

  /** Node id owning this secret, or undefined. The digest comparison is constant-time. */
  lookup(secret: string): number | undefined {
    const digest = sha256Hex(secret);
    const id = this.byHash.get(digest);
    if (id === undefined) return undefined;
    const stored = this.hashById.get(id);
    return stored !== undefined && safeEqual(stored, digest) ? id : undefined;
  }

  set(id: number, secret: string): void {
    this.setHash(id, sha256Hex(secret));
  }

  remove(id: number): void {
    const old = this.hashById.get(id);
    if (old !== undefined) this.byHash.delete(old);
    this.hashById.delete(id);
  }

  has(id: number): boolean {
    return this.hashById.has(id);
  }

  get size(): number {
    return this.byHash.size;
  }

  private setHash(id: number, hash: string): void {
    this.remove(id);
    this.byHash.set(hash, id);
    this.hashById.set(id, hash);
  }
}
