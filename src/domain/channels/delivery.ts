import { transitionKey, type PendingTransition } from '../../store/channel-ports.js';
import type { ChannelConfig } from './config.js';

/** What every channel type sends: a title, a body and machine-readable context. */
export interface NotifyMessage {
  title: string;
  message: string;
  meta?: Record<string, string | number | null>;
}

/** A failed send: transient failures retry with backoff, deterministic ones block. */
export class DeliveryError extends Error {
  constructor(
    readonly code: string,
    readonly transient: boolean,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Sends one message over one channel type; the adapters live in src/notify/. */
export interface ChannelSender {
  send(config: ChannelConfig, message: NotifyMessage, sentAt: number): Promise<void>;
}

export const MAX_ATTEMPTS = 7;
const BASE_RETRY_MS = 5_000;
const MAX_RETRY_MS = 320_000;
const MAX_REMOTE_WAIT_MS = 24 * 3600_000;
const PROBE_STEPS_MS = [5 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000];

/** 5 s × 2^(attempt−1), capped at 320 s, or the remote's Retry-After when longer. */
export function retryDelayMs(attempt: number, retryAfterMs?: number): number {
  const own = Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.max(own, Math.min(retryAfterMs ?? 0, MAX_REMOTE_WAIT_MS));
}

/** Blocked backlogs are probed after 5, 15, 30 minutes, then hourly. */
export function probeDelayMs(probe: number, retryAfterMs?: number): number {
  const own = PROBE_STEPS_MS[Math.min(probe, PROBE_STEPS_MS.length - 1)] as number;
  return Math.max(own, Math.min(retryAfterMs ?? 0, MAX_REMOTE_WAIT_MS));
}

export function summarize(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 512 ? text.slice(0, 509) + '...' : text;
}

function fmt(v: number | null): string {
  if (v === null) return '-';
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '');
}

/** The stored payload of one alert transition (title, message, meta). */
export function composeTransition(t: PendingTransition): NotifyMessage {
  const opened = t.transition !== 'closed';
  const tag =
    t.transition === 'closed'
      ? '[RESOLVED]'
      : t.transition === 'repeat'
        ? `[ALERT, repeat ${t.seq}]`
        : t.flapping
          ? '[ALERT, flapping]'
          : '[ALERT]';
  const title = `${tag} ${t.ruleName} on ${t.nodeName}`;
  const lines = [
    `Node: ${t.nodeName}`,
    `Rule: ${t.ruleName}`,
    `Metric: ${t.metric}`,
    `Value: ${fmt(t.currentValue)} (threshold ${fmt(t.effectiveThreshold)})`,
  ];
  if (!opened && t.closeReason !== null) lines.push(`Closed: ${t.closeReason}`);
  if (t.why !== null && t.why !== '') lines.push(t.why);
  if (t.flapping && t.transition === 'opened')
    lines.push('Flapping: further changes are held back until it is stable.');
  return {
    title,
    message: lines.join('\n'),
    meta: {
      event_id: t.eventId,
      transition: t.transition,
      dedupe_key: transitionKey(t),
      rule_id: t.ruleId,
      server_id: t.nodeId,
      close_reason: t.closeReason,
    },
  };
}

/** Digest messages hold at most this many transitions and about this much text. */
export const DIGEST_MAX_ITEMS = 20;
const DIGEST_MAX_CHARS = 3500;

/** One message for several transitions of one channel, oldest first. */
export function composeDigest(messages: readonly NotifyMessage[]): NotifyMessage {
  const alerts = messages.filter((m) => m.meta?.transition !== 'closed').length;
  const resolved = messages.length - alerts;
  const parts: string[] = [];
  let size = 0;
  let shown = 0;
  for (const m of messages) {
    const part = `${m.title}\n${m.message}`;
    if (shown > 0 && size + part.length > DIGEST_MAX_CHARS) break;
    parts.push(part);
    size += part.length + 2;
    shown++;
  }
  if (shown < messages.length) parts.push(`… and ${messages.length - shown} more`);
  return {
    title: `[DIGEST] ${alerts} alert(s), ${resolved} resolved`,
    message: parts.join('\n\n'),
    meta: {
      transition: 'digest',
      digest_count: messages.length,
      dedupe_key: `digest:${messages.map((m) => String(m.meta?.dedupe_key ?? '')).join(',')}`,
    },
  };
}

export const TEST_MESSAGE: NotifyMessage = {
  title: 'Dash test notification',
  message: 'This is a test notification from Dash. If you can read it, the channel works.',
};
