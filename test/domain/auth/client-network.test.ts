import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../../src/domain/auth/client-network.js';
import { RateLimiter } from '../../../src/domain/auth/rate-limiter.js';
import { FakeClock } from '../../support/fake-clock.js';

describe('client network', () => {
  it.each([
    ['192.0.2.77', '192.0.2.0/24'],
    ['::ffff:192.0.2.5', '192.0.2.0/24'],
    ['2001:db8:abcd::1', '2001:db8:ab00::/40'],
    ['2001:0db8:abff:1:2:3:4:5', '2001:db8:ab00::/40'],
    ['::1', '0:0:0::/40'],
  ])('%s → %s', (ip, net) => expect(clientNetwork(ip)).toBe(net));
});

describe('rate limiter', () => {
  it('allows `limit` hits per sliding window and reports when to retry', () => {
    const clock = new FakeClock(0);
    const rl = new RateLimiter(clock, 2, 1000);
    expect(rl.tryHit('a')).toBe(true);
    clock.advance(500);
    expect(rl.tryHit('a')).toBe(true);
    expect(rl.tryHit('a')).toBe(false);
    expect(rl.retryAfterMs('a')).toBe(500);
    expect(rl.tryHit('b')).toBe(true);
    clock.advance(501);
    expect(rl.tryHit('a')).toBe(true);
  });
});
