import type { TelegramBotConfig } from '../domain/channels/config.js';
import { DeliveryError, type NotifyMessage } from '../domain/channels/delivery.js';
import { httpFailure, HTTP_TIMEOUT_MS, networkFailure } from './http-failure.js';

const MAX_TEXT = 4096;

/** Telegram Bot API `sendMessage` over fetch; `apiBase` is configurable for tests. */
export async function sendTelegramBot(
  apiBase: string,
  config: TelegramBotConfig,
  msg: NotifyMessage,
): Promise<void> {
  const text = `${msg.title}\n\n${msg.message}`.slice(0, MAX_TEXT);
  let res: Response;
  try {
    res = await fetch(`${apiBase}/bot${config.bot_token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: config.chat_id, text, disable_web_page_preview: true }),
      redirect: 'manual',
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch (err) {
    // The URL carries the bot token: never let the underlying error text out.
    throw networkFailure(err);
  }
  let reply: { ok?: boolean; description?: string; parameters?: { retry_after?: number } } = {};
  try {
    reply = (await res.json()) as typeof reply;
  } catch {
    /* a non-JSON answer is judged by its status alone */
  }
  if (res.ok && reply.ok !== false) return;
  if (res.ok) throw new DeliveryError('telegram_error', false, 'Telegram refused the message');
  const failure = httpFailure('telegram', res, reply.parameters?.retry_after);
  const description = (reply.description ?? '').split(config.bot_token).join('[redacted]');
  throw new DeliveryError(
    failure.code,
    failure.transient,
    description === '' ? failure.message : `${failure.message}: ${description}`,
    failure.retryAfterMs,
  );
}
