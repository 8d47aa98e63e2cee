import { rfc3339 } from '../../platform/time-format.js';
import type { ChannelView } from '../../domain/channels/service.js';
import type { Channel } from '../../protocol/api/channels.js';

const time = (ms: number | null) => (ms === null ? null : rfc3339(ms));

/** A channel read: sanitized config (null when undecodable), revision and delivery health. */
export function presentChannel(v: ChannelView): Channel {
  const r = v.row;
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    config: v.config,
    enabled: r.enabled,
    revision: r.revision,
    created_at: rfc3339(r.createdAt),
    updated_at: rfc3339(r.updatedAt),
    delivery_status: v.deliveryStatus,
    last_success_at: time(r.lastSuccessAt),
    last_failure_at: time(r.lastFailureAt),
    consecutive_failures: r.consecutiveFailures,
    last_error_code: r.lastErrorCode,
    last_error: r.lastError,
    next_retry_at: time(v.backlog.nextRetryAt),
    next_probe_at: time(v.backlog.nextProbeAt),
    pending_count: v.backlog.pending,
    blocked_count: v.backlog.blocked,
  };
}
