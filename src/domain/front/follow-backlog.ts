/**
 * The nodes whose stored current projection other instances changed and this instance has not
 * re-read yet (docs/postgresql.md "Between instances"). An instance that is not the alert
 * leader only notes them: re-reading and rendering every report of the other instances cost
 * it 5-7 % of its HTTP thread for front views nobody may read. Whoever reads front views
 * calls catchUp() first, which re-reads what was noted, so a read is never older than the
 * store was when it asked.
 */
export class FollowBacklog {
  private ids = new Set<number>();
  /** Notes so far, and how many of them a finished read covered. */
  private noted = 0;
  private readUpTo = 0;
  private reading: Promise<void> | undefined;

  constructor(private readonly read: (nodeIds: readonly number[]) => Promise<void>) {}

  /** Nodes noted and not re-read yet. */
  get size(): number {
    return this.ids.size;
  }

  note(nodeIds: readonly number[]): void {
    if (nodeIds.length === 0) return;
    for (const id of nodeIds) this.ids.add(id);
    this.noted++;
  }

  /**
   * Resolves once every node noted before the call has been re-read; undefined when nothing
   * noted waits, so a reader with nothing to catch up stays synchronous. One read at a time:
   * nodes noted while a read runs wait for the next one, which a caller that needs them starts.
   */
  catchUp(): Promise<void> | undefined {
    return this.readUpTo >= this.noted ? undefined : this.until(this.noted);
  }

  private async until(target: number): Promise<void> {
    while (this.readUpTo < target) await (this.reading ??= this.readNoted());
  }

  private async readNoted(): Promise<void> {
    const upTo = this.noted;
    const ids = [...this.ids];
    this.ids = new Set();
    try {
      await this.read(ids);
      this.readUpTo = Math.max(this.readUpTo, upTo);
    } catch (err) {
      // Read again by the next caller: none of these may be served as read.
      for (const id of ids) this.ids.add(id);
      throw err;
    } finally {
      this.reading = undefined;
    }
  }
}
