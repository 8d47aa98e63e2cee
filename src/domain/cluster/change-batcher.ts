/**
 * Collects ids and hands them over in batches, at most `delayMs` after the first id of a
 * batch arrived: one bus message per batch instead of one per report. An id added twice in a
 * batch is sent once.
 */
export class ChangeBatcher {
  private ids = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly delayMs: number,
    private readonly send: (ids: readonly number[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(id: number): void {
    this.ids.add(id);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref();
  }

  /** Sends what is collected now; resolves when every batch so far is sent. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.ids.size > 0) {
      const ids = [...this.ids];
      this.ids = new Set();
      this.sending = this.sending.then(() => this.send(ids)).catch(this.onError);
    }
    return this.sending;
  }
}
