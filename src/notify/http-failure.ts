import { DeliveryError } from '../domain/channels/delivery.js';

const TRANSIENT_STATUS = new Set([408, 409, 423, 425, 429]);

/** 408/409/423/425/429 and 5xx retry; any other non-2xx is deterministic. */
export function httpFailure(prefix: string, res: Response, retryAfterSec?: number): DeliveryError {
  const header = Number(res.headers.get('retry-after'));
  const seconds = Math.max(Number.isFinite(header) ? header : 0, retryAfterSec ?? 0);
  const transient = TRANSIENT_STATUS.has(res.status) || res.status >= 500;
  return new DeliveryError(
    `${prefix}_http_${res.status}`,
    transient,
    `HTTP ${res.status}`,
    seconds > 0 ? seconds * 1000 : undefined,
  );
}

/** Network failures and timeouts are transient; the message never carries the URL. */
export function networkFailure(err: unknown): DeliveryError {
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new DeliveryError('timeout', true, 'request timed out');
  }
  return new DeliveryError('network', true, 'network error');
}

export const HTTP_TIMEOUT_MS = 10_000;
