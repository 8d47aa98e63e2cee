import { Api, TelegramClient } from 'telegram';
import { StringSession } from 'telegram/sessions/index.js';
import { computeCheck } from 'telegram/Password.js';
import {
  MtprotoCodeError,
  MtprotoPasswordError,
  type MtprotoAccount,
  type MtprotoGateway,
  type MtprotoLogin,
} from '../domain/channels/mtproto.js';

function client(account: MtprotoAccount, session: string): TelegramClient {
  const c = new TelegramClient(new StringSession(session), account.apiId, account.apiHash, {
    connectionRetries: 2,
  });
  // GramJS logs connection chatter (and nothing Dash needs) to stdout by default.
  c.setLogLevel('none' as never);
  return c;
}

function errorMessage(err: unknown): string {
  return err instanceof Error
    ? ((err as { errorMessage?: string }).errorMessage ?? err.message)
    : '';
}

function usernameOf(user: Api.TypeUser): string | undefined {
  return user instanceof Api.User ? (user.username ?? undefined) : undefined;
}

/** Telegram user-account delivery and login with GramJS (the `telegram` package). */
export function gramjsGateway(): MtprotoGateway {
  return {
    async startLogin(account): Promise<MtprotoLogin> {
      const c = client(account, '');
      await c.connect();
      let phoneCodeHash = '';
      const save = () => String(c.session.save());
      return {
        async sendCode() {
          const sent = await c.sendCode(
            { apiId: account.apiId, apiHash: account.apiHash },
            account.phone,
          );
          phoneCodeHash = sent.phoneCodeHash;
          return {};
        },
        async verify(code) {
          try {
            const result = await c.invoke(
              new Api.auth.SignIn({ phoneNumber: account.phone, phoneCodeHash, phoneCode: code }),
            );
            const user = result instanceof Api.auth.Authorization ? result.user : undefined;
            const username = user === undefined ? undefined : usernameOf(user);
            return username === undefined ? { session: save() } : { session: save(), username };
          } catch (err) {
            const m = errorMessage(err);
            if (m === 'SESSION_PASSWORD_NEEDED') return { passwordRequired: true };
            if (m.startsWith('PHONE_CODE_'))
              throw new MtprotoCodeError(`login code rejected (${m})`);
            throw err;
          }
        },
        async password(password) {
          try {
            const info = await c.invoke(new Api.account.GetPassword());
            const check = await computeCheck(info, password);
            const result = await c.invoke(new Api.auth.CheckPassword({ password: check }));
            const user = result instanceof Api.auth.Authorization ? result.user : undefined;
            const username = user === undefined ? undefined : usernameOf(user);
            return username === undefined ? { session: save() } : { session: save(), username };
          } catch (err) {
            if (errorMessage(err) === 'PASSWORD_HASH_INVALID') throw new MtprotoPasswordError();
            throw err;
          }
        },
        async close() {
          await c.disconnect();
        },
      };
    },
    async check(account, session) {
      const c = client(account, session);
      try {
        await c.connect();
        return await c.checkAuthorization();
      } finally {
        await c.disconnect();
      }
    },
    async send(account, session, chatId, text) {
      const c = client(account, session);
      try {
        await c.connect();
        await c.sendMessage(typeof chatId === 'number' ? chatId : chatId, { message: text });
      } finally {
        await c.disconnect();
      }
    },
  };
}
