import { createHmac } from 'node:crypto';
import type { WebhookConfig } from '../domain/channels/config.js';
import { DeliveryError, type NotifyMessage } from '../domain/channels/delivery.js';
import { rfc3339 } from '../platform/time-format.js';
import { renderBodyTemplate } from '../protocol/webhook-presets.js';
import { httpFailure, HTTP_TIMEOUT_MS, networkFailure } from './http-failure.js';

/**
 * POSTs `{title, message, sent_at, meta}` as JSON; with a secret, signs the raw body with
 * HMAC-SHA256. Redirects are not followed (a POST must not silently change target).
 */
export async function sendWebhook(
  config: WebhookConfig,
  msg: NotifyMessage,
  sentAt: number,
): Promise<void> {
  const meta = msg.meta ?? {};
  const body =
    config.body_template === undefined
      ? JSON.stringify({
          title: msg.title,
          message: msg.message,
          sent_at: rfc3339(sentAt),
          ...(msg.meta === undefined ? {} : { meta: msg.meta }),
        })
      : renderBodyTemplate(config.body_template, {
          title: msg.title,
          message: msg.message,
          text: `${msg.title}\n${msg.message}`,
          sent_at: rfc3339(sentAt),
          transition: String(meta.transition ?? 'test'),
          dedupe_key: String(meta.dedupe_key ?? ''),
        });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (meta.dedupe_key != null) headers['x-alert-dedupe-key'] = String(meta.dedupe_key);
  if (meta.event_id != null) headers['x-alert-event-id'] = String(meta.event_id);
  if (meta.transition != null) headers['x-alert-transition'] = String(meta.transition);
  if (config.secret !== undefined) {
    headers['x-webhook-signature'] =
      'sha256=' + createHmac('sha256', config.secret).update(body).digest('hex');
  }
  let res: Response;
  try {
    res = await fetch(config.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch (err) {
    throw networkFailure(err);
  }
  await res.arrayBuffer().catch(() => undefined);
  if (res.status >= 300 && res.status < 400) {
    throw new DeliveryError(`redirect_${res.status}`, false, 'redirects are not followed');
  }
  if (res.status < 200 || res.status >= 300) throw httpFailure('webhook', res);
}
