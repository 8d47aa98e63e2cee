/**
 * Tells hot state (secret index users, front snapshot, alert runtime) that a node's stored
 * record changed. Admin operations emit after their transaction commits; listeners re-read what
 * they need from the store.
 */
export type NodeEvent =
  | { type: 'created'; nodeId: number }
  | { type: 'updated'; nodeId: number }
  | { type: 'deleted'; nodeId: number }
  | { type: 'reordered' };

export type NodeEventListener = (event: NodeEvent) => void | Promise<void>;

export class NodeEvents {
  private readonly listeners: NodeEventListener[] = [];

  on(listener: NodeEventListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener; a failing listener is reported but does not stop the others. */
  async emit(event: NodeEvent, onError: (err: unknown) => void = () => {}): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (err) {
        onError(err);
      }
    }
  }
}
