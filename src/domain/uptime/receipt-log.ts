/**
 * Recent report receive times per node, enough to finalise the minutes not yet written.
 * Fed by ingest for every persisted report (in receive order or close to it).
 */
export class ReceiptLog {
  private readonly byNode = new Map<number, number[]>();

  add(nodeId: number, receivedAt: number): void {
    let list = this.byNode.get(nodeId);
    if (!list) {
      list = [];
      this.byNode.set(nodeId, list);
    }
    // Reports finish out of order now and then; keep the list sorted.
    let i = list.length;
    while (i > 0 && (list[i - 1] as number) > receivedAt) i--;
    if (list[i - 1] === receivedAt) return;
    list.splice(i, 0, receivedAt);
  }

  receipts(nodeId: number): readonly number[] {
    return this.byNode.get(nodeId) ?? [];
  }

  /** Drops receipts that can no longer touch a minute at or after `from`. */
  prune(before: number): void {
    for (const [id, list] of this.byNode) {
      let drop = 0;
      // Keep the last receipt before the cut: its span may still reach into later minutes.
      while (drop < list.length - 1 && (list[drop + 1] as number) <= before) drop++;
      if (drop > 0) list.splice(0, drop);
      if (list.length === 0) this.byNode.delete(id);
    }
  }

  forget(nodeId: number): void {
    this.byNode.delete(nodeId);
  }
}
