/**
 * One node's assembled front-view JSON (`{"node":…,…}`) as UTF-8 bytes in a buffer reused from
 * report to report. Keeping the view off the JS heap matters at scale: a string per node that
 * is replaced every few seconds lives long enough to be promoted, so the old generation would
 * fill with garbage and the process would grow far beyond what the views need.
 */
export class ViewSlab {
  private buf: Buffer | undefined;
  private len = 0;
  /** Offset of the part after `{"node":<node>,`. */
  private restStart = 0;

  /** Replaces the whole view: the node object, then the remaining members in order. */
  write(nodeJson: string, rest: readonly string[]): void {
    let size = 10 + Buffer.byteLength(nodeJson);
    for (const piece of rest) size += Buffer.byteLength(piece);
    const buf = this.capacity(size, false);
    let at = buf.write('{"node":', 0, 'latin1');
    at += buf.write(nodeJson, at, 'utf8');
    at += buf.write(',', at, 'latin1');
    this.restStart = at;
    for (const piece of rest) at += buf.write(piece, at, 'utf8');
    at += buf.write('}', at, 'latin1');
    this.len = at;
  }

  /** Swaps the node object (rename, tags, order), keeping the rest of the view as it is. */
  replaceNode(nodeJson: string): void {
    if (!this.buf || this.len === 0) return;
    const rest = Buffer.from(this.buf.subarray(this.restStart, this.len));
    const size = 9 + Buffer.byteLength(nodeJson) + rest.length;
    const buf = this.capacity(size, true);
    let at = buf.write('{"node":', 0, 'latin1');
    at += buf.write(nodeJson, at, 'utf8');
    at += buf.write(',', at, 'latin1');
    this.restStart = at;
    at += rest.copy(buf, at);
    this.len = at;
  }

  /** The view's bytes; valid until the view next changes (copy them to keep them). */
  bytes(): Buffer {
    return (this.buf ?? Buffer.alloc(0)).subarray(0, this.len);
  }

  text(): string {
    return this.buf ? this.buf.toString('utf8', 0, this.len) : '';
  }

  private capacity(size: number, keep: boolean): Buffer {
    if (this.buf && this.buf.length >= size) return this.buf;
    // A quarter of headroom so a slightly longer report does not reallocate.
    const next = Buffer.allocUnsafeSlow(Math.ceil((size * 1.25) / 256) * 256);
    if (keep && this.buf) this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
    return next;
  }
}
