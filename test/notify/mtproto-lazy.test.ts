import { describe, expect, it, vi } from 'vitest';
import type { MtprotoGateway } from '../../src/domain/channels/mtproto.js';

/** GramJS stays out of Dash's start: the gateway module is imported on the first call only. */
const loaded = vi.hoisted(() => ({ count: 0 }));
const sent: unknown[][] = [];
vi.mock('../../src/notify/mtproto-gramjs.js', () => {
  loaded.count++;
  return {
    gramjsGateway: (): MtprotoGateway => ({
      startLogin: () => Promise.reject(new Error('unused')),
      check: () => Promise.resolve(true),
      send: (...args) => {
        sent.push(args);
        return Promise.resolve();
      },
    }),
  };
});

describe('lazyGramjsGateway', () => {
  it('loads GramJS on first use, once, and delegates to it', async () => {
    const { lazyGramjsGateway } = await import('../../src/notify/mtproto-lazy.js');
    const gateway = lazyGramjsGateway();
    expect(loaded.count).toBe(0);
    const account = { apiId: 1, apiHash: 'h', phone: '+1' };
    await gateway.send(account, 'session', 42, 'hello');
    expect(await gateway.check(account, 'session')).toBe(true);
    expect(loaded.count).toBe(1);
    expect(sent).toEqual([[account, 'session', 42, 'hello']]);
  });
});
