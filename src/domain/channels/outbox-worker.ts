import type { Clock } from '../../platform/clock.js';
import type { ChannelsRepo, DeliveryOutcome, OutboxItem } from '../../store/ports.js';
import { digestSeconds, parseStoredConfig, type ChannelConfig } from './config.js';
import {
  composeDigest,
  composeTransition,
  DIGEST_MAX_ITEMS,
  DeliveryError,
  MAX_ATTEMPTS,
  probeDelayMs,
  retryDelayMs,
  summarize,
  type ChannelSender,
  type NotifyMessage,
} from './delivery.js';
import type { Sealer } from './service.js';

export interface OutboxWorkerOptions {
  repo: ChannelsRepo;
  sealer: Sealer;
  clock: Clock;
  sender: ChannelSender;
  /** Failure notes for the log: ids and codes only, never configs or payloads. */
  warn: (ctx: Record<string, unknown>, msg: string) => void;
  /** A `sending` item whose lease passed is retaken (the process died mid-send). */
  leaseMs?: number;
  /** Items sent per run, so one run never holds the job for long. */
  batch?: number;
}

/**
 * Delivery from the durable outbox. Alert transitions become items by `fanOut` (idempotent:
 * dedupe keys plus `dispatched_at` in one transaction); each item is leased in a transaction,
 * sent, and its result and the channel health are committed together. A crash between lease
 * and commit leaves a `sending` item that is retaken after the lease: at-least-once for that
 * one in-flight send, never a loss, and an item once marked `sent` is never sent again.
 */
export class OutboxWorker {
  /** Parsed configs by channel id and sealed text (digest windows are read on every fan-out). */
  private readonly configs = new Map<number, { sealed: string; config?: ChannelConfig }>();

  constructor(private readonly opts: OutboxWorkerOptions) {}

  async runOnce(now: number): Promise<void> {
    const { repo } = this.opts;
    const digest = await this.digestWindows();
    const compose = (t: Parameters<typeof composeTransition>[0]) =>
      JSON.stringify(composeTransition(t));
    while ((await repo.fanOut(now, compose, 200, (id) => digest.get(id) ?? 0)) > 0) {
      /* keep fanning out until the backlog is empty */
    }
    const batch = this.opts.batch ?? 20;
    for (let i = 0; i < batch; i++) {
      const at = this.opts.clock.now();
      const until = at + (this.opts.leaseMs ?? 60_000);
      const item = await repo.lease(at, until);
      if (item === undefined) return;
      // a digest channel sends everything due with it as one message
      const also =
        (digest.get(item.channelId) ?? 0) > 0 && item.leasedFrom !== 'blocked'
          ? await repo.leaseMore(item.channelId, at, until, DIGEST_MAX_ITEMS - 1)
          : [];
      await this.deliver(item, also);
    }
  }

  /** Digest window (ms) of every channel that has one. */
  private async digestWindows(): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const list = await this.opts.repo.list();
    const live = new Set(list.map((c) => c.id));
    for (const id of this.configs.keys()) if (!live.has(id)) this.configs.delete(id);
    for (const c of list) {
      let cached = this.configs.get(c.id);
      const key = `${c.type}:${c.sealedConfig}`;
      if (cached?.sealed !== key) {
        cached = { sealed: key, config: this.parse(c.type, c.sealedConfig) };
        this.configs.set(c.id, cached);
      }
      const sec = cached.config === undefined ? 0 : digestSeconds(cached.config);
      if (sec > 0) out.set(c.id, sec * 1000);
    }
    return out;
  }

  private parse(type: string, sealed: string): ChannelConfig | undefined {
    try {
      return parseStoredConfig(type, this.opts.sealer.decrypt(sealed));
    } catch {
      return undefined;
    }
  }

  private async deliver(item: OutboxItem, also: readonly OutboxItem[] = []): Promise<void> {
    const { repo, clock } = this.opts;
    const channel = await repo.get(item.channelId);
    if (channel === undefined) {
      const gone = { kind: 'discarded', code: 'channel_deleted' } as const;
      await repo.complete(item, 0, gone, clock.now(), also);
      return;
    }
    const valid: OutboxItem[] = [];
    const messages: NotifyMessage[] = [];
    for (const it of [item, ...also]) {
      const m = readPayload(it);
      if (m === undefined) {
        const bad = { kind: 'discarded', code: 'payload_invalid' } as const;
        await repo.complete(it, channel.revision, bad, clock.now());
      } else {
        valid.push(it);
        messages.push({ ...m, meta: { ...(m.meta ?? {}), dedupe_key: it.dedupeKey } });
      }
    }
    const [first, ...rest] = valid;
    if (first === undefined) return;
    let outcome: DeliveryOutcome;
    try {
      let config;
      try {
        config = parseStoredConfig(channel.type, this.opts.sealer.decrypt(channel.sealedConfig));
      } catch {
        throw new DeliveryError('invalid_config', false, 'stored channel config is invalid');
      }
      const message = messages.length === 1 ? messages[0]! : composeDigest(messages);
      await this.opts.sender.send(config, message, clock.now());
      outcome = { kind: 'sent' };
    } catch (err) {
      outcome = this.failure(first, err);
      this.opts.warn(
        {
          channel_id: first.channelId,
          item_id: first.id,
          code: outcome.kind === 'sent' ? '' : code(err),
        },
        'notification delivery failed',
      );
    }
    await repo.complete(first, channel.revision, outcome, clock.now(), rest);
  }

  private failure(item: OutboxItem, err: unknown): DeliveryOutcome {
    const now = this.opts.clock.now();
    const e =
      err instanceof DeliveryError ? err : new DeliveryError('send_failed', true, summarize(err));
    const error = summarize(e);
    if (item.leasedFrom === 'blocked') {
      return {
        kind: 'blocked',
        nextAt: now + probeDelayMs(item.probes + 1, e.retryAfterMs),
        code: e.code,
        error,
        probe: true,
      };
    }
    const attempt = item.attempts + 1;
    if (!e.transient || attempt >= MAX_ATTEMPTS) {
      return {
        kind: 'blocked',
        nextAt: now + probeDelayMs(0, e.retryAfterMs),
        code: e.code,
        error,
        probe: false,
      };
    }
    return {
      kind: 'retry',
      nextAt: now + retryDelayMs(attempt, e.retryAfterMs),
      code: e.code,
      error,
    };
  }
}

function readPayload(item: OutboxItem): NotifyMessage | undefined {
  try {
    const m = JSON.parse(item.payload) as NotifyMessage;
    return typeof m.title === 'string' && typeof m.message === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

function code(err: unknown): string {
  return err instanceof DeliveryError ? err.code : 'send_failed';
}
