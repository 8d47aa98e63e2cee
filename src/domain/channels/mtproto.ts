/**
 * The seam to Telegram's MTProto user-account API (the `telegram` library in production,
 * a fake in tests). Sessions are opaque strings the domain seals with the data key.
 */
export interface MtprotoAccount {
  apiId: number;
  apiHash: string;
  phone: string;
}

export interface MtprotoLogin {
  /** Sends the login code to the account's Telegram apps; resolves with its lifetime. */
  sendCode(): Promise<{ timeoutSec?: number }>;
  verify(
    code: string,
  ): Promise<{ passwordRequired: true } | { session: string; username?: string }>;
  /** Throws MtprotoPasswordError for a wrong two-step password. */
  password(password: string): Promise<{ session: string; username?: string }>;
  close(): Promise<void>;
}

export interface MtprotoGateway {
  startLogin(account: MtprotoAccount): Promise<MtprotoLogin>;
  check(account: MtprotoAccount, session: string): Promise<boolean>;
  send(
    account: MtprotoAccount,
    session: string,
    chatId: string | number,
    text: string,
  ): Promise<void>;
}

export class MtprotoPasswordError extends Error {
  constructor() {
    super('wrong two-step verification password');
    this.name = 'MtprotoPasswordError';
  }
}

export class MtprotoCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MtprotoCodeError';
  }
}
