/**
 * Publish/subscribe between Dash instances sharing one database (PostgreSQL LISTEN/NOTIFY:
 * store/postgres/notify.ts). Messages are small (ids and names, never documents): whoever
 * hears one re-reads the state it names from the store.
 */
export interface ClusterBus {
  /** Delivered to every subscribed instance, this one included, after the publish commits. */
  publish(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, fn: (payload: string) => void): Promise<() => void>;
}

/** PostgreSQL's NOTIFY payload limit is 8,000 bytes; stay under it. */
export const MAX_MESSAGE_BYTES = 7999;
