import type { MtprotoGateway } from '../domain/channels/mtproto.js';

/**
 * The GramJS gateway, loaded on first use. The `telegram` package is large and most installs
 * never use a Telegram user account; importing it at start delayed Dash's first answer (and the
 * first-run page) by most of a second.
 */
export function lazyGramjsGateway(): MtprotoGateway {
  let gateway: Promise<MtprotoGateway> | undefined;
  const get = (): Promise<MtprotoGateway> =>
    (gateway ??= import('./mtproto-gramjs.js').then((m) => m.gramjsGateway()));
  return {
    startLogin: async (account) => (await get()).startLogin(account),
    check: async (account, session) => (await get()).check(account, session),
    send: async (account, session, chatId, text) =>
      (await get()).send(account, session, chatId, text),
  };
}
