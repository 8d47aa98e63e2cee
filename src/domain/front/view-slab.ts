/**
 * Pre-rendered front views, kept as UTF-8 bytes off the JS heap. A string per node replaced
 * every few seconds lives long enough to be promoted, so the old generation would fill with
 * garbage; and a buffer per node costs an allocation (with its external-memory accounting) per
 * node at start and headroom per node for good. So every view of a FrontState lives in one
 * arena: a few large chunks, each view in a slot it rewrites in place while it fits.
 */

/** Bytes per chunk; a view larger than a quarter of it gets a chunk of its own. */
const CHUNK_BYTES = 1 << 20;
/** Slots are multiples of this, with an eighth of headroom, so a slightly longer report fits. */
const SLOT_ALIGN = 64;

interface Chunk {
  buf: Buffer;
  /** Bytes handed out from the start. */
  used: number;
  /** Bytes of slots still in use. */
  live: number;
  residents: Set<ViewSlab>;
  evacuating: boolean;
}

export interface ArenaStats {
  chunks: number;
  /** Bytes reserved by the chunks. */
  reservedBytes: number;
  /** Bytes of the slots in use (views and their headroom). */
  liveBytes: number;
}

/**
 * Chunks of slots. A slot that no longer fits its view is given up and the view moves to the
 * newest chunk; a chunk (other than the newest) whose slots in use fall below half of what it
 * handed out is evacuated: its views are copied to the newest chunk and it is dropped. So the
 * reserved memory stays within about twice the views, usually far less, however views change.
 */
export class ViewArena {
  private readonly chunks = new Set<Chunk>();
  private tail: Chunk | undefined;

  stats(): ArenaStats {
    let reservedBytes = 0;
    let liveBytes = 0;
    for (const c of this.chunks) {
      reservedBytes += c.buf.length;
      liveBytes += c.live;
    }
    return { chunks: this.chunks.size, reservedBytes, liveBytes };
  }

  /** A slot of at least `size` bytes for `owner`. */
  alloc(owner: ViewSlab, size: number): { chunk: Chunk; offset: number; capacity: number } {
    const capacity = Math.ceil((size * 1.125) / SLOT_ALIGN) * SLOT_ALIGN;
    let chunk = this.tail;
    if (capacity > CHUNK_BYTES / 4) {
      chunk = this.newChunk(capacity, false);
    } else if (!chunk || chunk.used + capacity > chunk.buf.length) {
      chunk = this.newChunk(CHUNK_BYTES, true);
    }
    const offset = chunk.used;
    chunk.used += capacity;
    chunk.live += capacity;
    chunk.residents.add(owner);
    return { chunk, offset, capacity };
  }

  /**
   * Gives a slot back; `owner` leaves the chunk unless it still has another slot there. May
   * evacuate the chunk.
   */
  release(chunk: Chunk, capacity: number, owner: ViewSlab | undefined): void {
    chunk.live -= capacity;
    if (owner) chunk.residents.delete(owner);
    if (chunk === this.tail || chunk.evacuating) return;
    if (chunk.live === 0) this.chunks.delete(chunk);
    else if (chunk.live < chunk.used / 2) this.evacuate(chunk);
  }

  private evacuate(chunk: Chunk): void {
    this.chunks.delete(chunk);
    chunk.evacuating = true;
    // Views move by copying: anyone still holding a view's bytes keeps the old, intact chunk.
    for (const slab of [...chunk.residents]) slab.move();
  }

  private newChunk(bytes: number, asTail: boolean): Chunk {
    const chunk: Chunk = {
      buf: Buffer.allocUnsafeSlow(bytes),
      used: 0,
      live: 0,
      residents: new Set(),
      evacuating: false,
    };
    this.chunks.add(chunk);
    if (asTail) {
      const old = this.tail;
      this.tail = chunk;
      // The former tail is now judged like any other chunk.
      if (old && old.live < old.used / 2) {
        if (old.live === 0) this.chunks.delete(old);
        else this.evacuate(old);
      }
    }
    return chunk;
  }
}

/**
 * One node's assembled front-view JSON (`{"node":…,…}`) in a slot of an arena (its own arena
 * when none is given).
 */
export class ViewSlab {
  private chunk: Chunk | undefined;
  private offset = 0;
  private capacity = 0;
  private len = 0;
  /** Offset of the part after `{"node":<node>,`, from the view's start. */
  private restStart = 0;

  constructor(private readonly arena: ViewArena = new ViewArena()) {}

  /** Replaces the whole view: the node object, then the remaining members in order. */
  write(nodeJson: string, rest: readonly string[]): void {
    let size = 10 + Buffer.byteLength(nodeJson);
    for (const piece of rest) size += Buffer.byteLength(piece);
    const { buf, offset } = this.room(size, false);
    let at = offset + buf.write('{"node":', offset, 'latin1');
    at += buf.write(nodeJson, at, 'utf8');
    at += buf.write(',', at, 'latin1');
    this.restStart = at - offset;
    for (const piece of rest) at += buf.write(piece, at, 'utf8');
    at += buf.write('}', at, 'latin1');
    this.len = at - offset;
  }

  /**
   * The same as write(nodeJson, [rest]) for a rest already encoded as UTF-8 (rendered on an
   * ingest thread, which sends bytes so that this thread neither allocates nor encodes it).
   */
  writeBytes(nodeJson: string, rest: Uint8Array): void {
    const { buf, offset } = this.room(10 + Buffer.byteLength(nodeJson) + rest.length, false);
    let at = offset + buf.write('{"node":', offset, 'latin1');
    at += buf.write(nodeJson, at, 'utf8');
    at += buf.write(',', at, 'latin1');
    this.restStart = at - offset;
    buf.set(rest, at);
    at += rest.length;
    at += buf.write('}', at, 'latin1');
    this.len = at - offset;
  }

  /** Swaps the node object (rename, tags, order), keeping the rest of the view as it is. */
  replaceNode(nodeJson: string): void {
    if (!this.chunk || this.len === 0) return;
    const rest = Buffer.from(this.bytes().subarray(this.restStart));
    const size = 9 + Buffer.byteLength(nodeJson) + rest.length;
    const { buf, offset } = this.room(size, false);
    let at = offset + buf.write('{"node":', offset, 'latin1');
    at += buf.write(nodeJson, at, 'utf8');
    at += buf.write(',', at, 'latin1');
    this.restStart = at - offset;
    at += rest.copy(buf, at);
    this.len = at - offset;
  }

  /** The view's bytes; valid until the view next changes (copy them to keep them). */
  bytes(): Buffer {
    if (!this.chunk) return Buffer.alloc(0);
    return this.chunk.buf.subarray(this.offset, this.offset + this.len);
  }

  text(): string {
    return this.chunk ? this.chunk.buf.toString('utf8', this.offset, this.offset + this.len) : '';
  }

  /** Gives the slot back to the arena (the node is gone). */
  free(): void {
    if (!this.chunk) return;
    this.arena.release(this.chunk, this.capacity, this);
    this.chunk = undefined;
    this.len = 0;
  }

  /** Called by the arena while evacuating this view's chunk: copies the view to a new slot. */
  move(): void {
    if (!this.chunk) return;
    this.room(this.len, true);
  }

  private room(size: number, keep: boolean): { buf: Buffer; offset: number } {
    if (this.chunk && this.capacity >= size && !keep) {
      return { buf: this.chunk.buf, offset: this.offset };
    }
    const old = this.chunk && { chunk: this.chunk, offset: this.offset, capacity: this.capacity };
    const slot = this.arena.alloc(this, size);
    if (keep && old)
      old.chunk.buf.copy(slot.chunk.buf, slot.offset, old.offset, old.offset + this.len);
    this.chunk = slot.chunk;
    this.offset = slot.offset;
    this.capacity = slot.capacity;
    if (old)
      this.arena.release(old.chunk, old.capacity, old.chunk === slot.chunk ? undefined : this);
    return { buf: slot.chunk.buf, offset: slot.offset };
  }
}
