/** Store ports of notification channels and their delivery outbox (issue 16). */
export interface ChannelRow {
  id: number;
  name: string;
  type: string;
  /** The config JSON sealed with the data key (secrets included). */
  sealedConfig: string;
  enabled: boolean;
  revision: number;
  createdAt: number;
  updatedAt: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  consecutiveFailures: number;
  lastErrorCode: string | null;
  lastError: string | null;
}

export interface ChannelWrite {
  name: string;
  type: string;
  sealedConfig: string;
  enabled: boolean;
}

export interface ChannelBacklog {
  pending: number;
  blocked: number;
  nextRetryAt: number | null;
  nextProbeAt: number | null;
}

export type OutboxState =
  'pending' | 'sending' | 'retry' | 'blocked' | 'paused' | 'sent' | 'discarded';

export interface OutboxItem {
  id: number;
  channelId: number;
  dedupeKey: string;
  payload: string;
  /** The state the item had before this lease (blocked items are probes). */
  leasedFrom: OutboxState;
  attempts: number;
  probes: number;
}

/** An alert transition waiting to be fanned out, with what a message needs. */
export interface PendingTransition {
  id: number;
  eventId: number;
  transition: 'opened' | 'closed' | 'repeat';
  /** The repeat number (from 1) of a `repeat`; 0 otherwise. */
  seq: number;
  closeReason: string | null;
  createdAt: number;
  /** The node/rule pair is flapping: this is its one notification until it is stable. */
  flapping: boolean;
  ruleId: number;
  ruleName: string;
  nodeId: number;
  nodeName: string;
  metric: string;
  currentValue: number | null;
  effectiveThreshold: number | null;
  why: string | null;
}

/** `alert:<event>:<transition>` (`repeat<seq>` for repeats); items append `:<channel>`. */
export function transitionKey(
  t: Pick<PendingTransition, 'eventId' | 'transition' | 'seq'>,
): string {
  return `alert:${t.eventId}:${t.transition === 'repeat' ? `repeat${t.seq}` : t.transition}`;
}

export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; nextAt: number; code: string; error: string }
  | { kind: 'blocked'; nextAt: number; code: string; error: string; probe: boolean }
  | { kind: 'discarded'; code: string };

export interface ChannelsRepo {
  list(): Promise<ChannelRow[]>;
  get(id: number): Promise<ChannelRow | undefined>;
  backlog(): Promise<Map<number, ChannelBacklog>>;
  create(write: ChannelWrite, now: number): Promise<number>;
  /**
   * Replaces a channel when its revision still is `expectedRevision`. A type change discards
   * unsent items; otherwise paused or blocked items wake (attempts reset) when enabled.
   */
  replace(
    id: number,
    expectedRevision: number,
    write: ChannelWrite,
    now: number,
  ): Promise<'ok' | 'missing' | 'changed'>;
  /** Keeps the MTProto session a login produced, when the channel is still at that revision. */
  updateConfig(
    id: number,
    expectedRevision: number,
    sealedConfig: string,
    now: number,
  ): Promise<'ok' | 'missing' | 'changed'>;
  setEnabled(id: number, enabled: boolean, now: number): Promise<boolean>;
  /** Deletes the channel, discards its unsent items, drops it from the alert settings. */
  delete(id: number, now: number): Promise<boolean>;
  allExist(ids: readonly number[]): Promise<boolean>;
  /**
   * In one transaction: every undispatched alert transition becomes one item per channel of
   * the alert settings (`pending`, or `paused` for a disabled channel; duplicates ignored),
   * and is marked dispatched. Returns the number of transitions handled.
   */
  fanOut(
    now: number,
    compose: (t: PendingTransition) => string,
    limit: number,
    /**
     * Digest window per channel (ms; 0 = none): a new item waits for the end of the channel's
     * open window (the due time of its waiting items), or opens a window of this length.
     */
    digestMs?: (channelId: number) => number,
  ): Promise<number>;
  /** Takes the next due item (or an expired lease) into `sending` until `leaseUntil`. */
  lease(now: number, leaseUntil: number): Promise<OutboxItem | undefined>;
  /**
   * Takes up to `limit` more due `pending`/`retry` items of one channel into the same lease
   * (a digest sends them as one message), oldest first.
   */
  leaseMore(
    channelId: number,
    now: number,
    leaseUntil: number,
    limit: number,
  ): Promise<OutboxItem[]>;
  /**
   * Records an attempt's outcome and the channel's health in one transaction; health is
   * untouched when the channel's revision moved on since `revision`.
   */
  complete(
    item: OutboxItem,
    revision: number,
    outcome: DeliveryOutcome,
    now: number,
    /** Items sent in the same message (a digest): they share the outcome, health counts once. */
    also?: readonly OutboxItem[],
  ): Promise<void>;
  /** Health after a test send; a success wakes blocked items. */
  recordTest(
    channelId: number,
    revision: number,
    result: { ok: true } | { ok: false; code: string; error: string },
    now: number,
  ): Promise<void>;
}
