import type { Clock } from '../../platform/clock.js';
import type { ChannelsRepo, DeliveryOutcome, OutboxItem } from '../../store/ports.js';
import { parseStoredConfig } from './config.js';
import {
  composeTransition,
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
  constructor(private readonly opts: OutboxWorkerOptions) {}

  async runOnce(now: number): Promise<void> {
    const { repo } = this.opts;
    while ((await repo.fanOut(now, (t) => JSON.stringify(composeTransition(t)), 200)) > 0) {
      /* keep fanning out until the backlog is empty */
    }
    const batch = this.opts.batch ?? 20;
    for (let i = 0; i < batch; i++) {
      const at = this.opts.clock.now();
      const item = await repo.lease(at, at + (this.opts.leaseMs ?? 60_000));
      if (item === undefined) return;
      await this.deliver(item);
    }
  }

  private async deliver(item: OutboxItem): Promise<void> {
    const { repo, clock } = this.opts;
    const channel = await repo.get(item.channelId);
    if (channel === undefined) {
      await repo.complete(item, 0, { kind: 'discarded', code: 'channel_deleted' }, clock.now());
      return;
    }
    let message: NotifyMessage;
    try {
      message = JSON.parse(item.payload) as NotifyMessage;
      if (typeof message.title !== 'string' || typeof message.message !== 'string') {
        throw new Error('payload shape');
      }
    } catch {
      await repo.complete(
        item,
        channel.revision,
        { kind: 'discarded', code: 'payload_invalid' },
        clock.now(),
      );
      return;
    }
    let outcome: DeliveryOutcome;
    try {
      let config;
      try {
        config = parseStoredConfig(channel.type, this.opts.sealer.decrypt(channel.sealedConfig));
      } catch {
        throw new DeliveryError('invalid_config', false, 'stored channel config is invalid');
      }
      const meta = { ...(message.meta ?? {}), dedupe_key: item.dedupeKey };
      await this.opts.sender.send(config, { ...message, meta }, clock.now());
      outcome = { kind: 'sent' };
    } catch (err) {
      outcome = this.failure(item, err);
      this.opts.warn(
        {
          channel_id: item.channelId,
          item_id: item.id,
          code: outcome.kind === 'sent' ? '' : code(err),
        },
        'notification delivery failed',
      );
    }
    await repo.complete(item, channel.revision, outcome, clock.now());
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

function code(err: unknown): string {
  return err instanceof DeliveryError ? err.code : 'send_failed';
}
