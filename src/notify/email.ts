import nodemailer from 'nodemailer';
import type { EmailConfig } from '../domain/channels/config.js';
import { DeliveryError, type NotifyMessage } from '../domain/channels/delivery.js';
import { HTTP_TIMEOUT_MS } from './http-failure.js';

/**
 * SMTP with nodemailer. `use_tls` means implicit TLS (usually port 465); without it
 * nodemailer still upgrades with STARTTLS when the server offers it.
 */
export async function sendEmail(config: EmailConfig, msg: NotifyMessage): Promise<void> {
  const transport = nodemailer.createTransport({
    host: config.smtp_host,
    port: config.smtp_port,
    secure: config.use_tls,
    ...(config.username === '' ? {} : { auth: { user: config.username, pass: config.password } }),
    connectionTimeout: HTTP_TIMEOUT_MS,
    greetingTimeout: HTTP_TIMEOUT_MS,
    socketTimeout: HTTP_TIMEOUT_MS,
    logger: false,
  });
  try {
    await transport.sendMail({
      from: config.from,
      to: config.to,
      subject: msg.title,
      text: msg.message,
    });
  } catch (err) {
    throw smtpFailure(err);
  } finally {
    transport.close();
  }
}

/** SMTP 4xx answers retry, 5xx are deterministic; connection trouble retries. */
function smtpFailure(err: unknown): DeliveryError {
  const e = err as { responseCode?: number; code?: string };
  if (typeof e.responseCode === 'number') {
    return new DeliveryError(
      `smtp_${e.responseCode}`,
      e.responseCode < 500,
      `SMTP answered ${e.responseCode}`,
    );
  }
  if (e.code === 'EAUTH')
    return new DeliveryError('smtp_auth', false, 'SMTP authentication failed');
  if (e.code === 'ETIMEDOUT') return new DeliveryError('timeout', true, 'SMTP timed out');
  return new DeliveryError('network', true, 'SMTP connection failed');
}
