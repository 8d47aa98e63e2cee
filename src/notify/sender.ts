import type { ChannelConfig } from '../domain/channels/config.js';
import type { ChannelSender, NotifyMessage } from '../domain/channels/delivery.js';
import { DeliveryError } from '../domain/channels/delivery.js';
import type { MtprotoGateway } from '../domain/channels/mtproto.js';
import { sendEmail } from './email.js';
import { sendTelegramBot } from './telegram-bot.js';
import { sendWebhook } from './webhook.js';

/** Routes a message to the adapter of the channel's type. */
export function channelSender(opts: {
  telegramApiBase: string;
  mtproto: MtprotoGateway;
}): ChannelSender {
  return {
    async send(c: ChannelConfig, msg: NotifyMessage, sentAt: number) {
      switch (c.type) {
        case 'webhook':
          return sendWebhook(c.config, msg, sentAt);
        case 'email':
          return sendEmail(c.config, msg);
        case 'telegram':
          if (c.config.mode === 'bot') return sendTelegramBot(opts.telegramApiBase, c.config, msg);
          if (c.config.session === undefined) {
            throw new DeliveryError('not_logged_in', false, 'the channel has no MTProto session');
          }
          try {
            await opts.mtproto.send(
              { apiId: c.config.api_id, apiHash: c.config.api_hash, phone: c.config.phone },
              c.config.session,
              c.config.chat_id,
              `${msg.title}\n\n${msg.message}`,
            );
          } catch (err) {
            if (err instanceof DeliveryError) throw err;
            throw new DeliveryError('mtproto_send_failed', true, 'MTProto send failed');
          }
      }
    },
  };
}
