import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../../../src/domain/auth/client-network.js';
import { RateLimiter } from '../../../src/domain/auth/rate-limiter.js';
import { FakeClock } from '../../support/fake-clock.js';

describe('client address key', () => {
  it.each([
    ['192.0.2.77', '192.0.2.77'],
    ['::ffff:192.0.2.5', '192.0.2.5'],
    ['2001:db8:abcd::1', '2001:db8:abcd:0::/64'],
    ['2001:0db8:abff:1:2:3:4:5', '2001:db8:abff:1::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s → %s', (ip, key) => expect(clientAddressKey(ip)).toBe(key));
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

  it('counts failures with hit() and tells when a key is limited', () => {
    const clock = new FakeClock(0);
    const rl = new RateLimiter(clock, 2, 1000);
    expect(rl.active).toBe(false);
    rl.hit('a');
    expect(rl.active).toBe(true);
    expect(rl.isLimited('a')).toBe(false);
    rl.hit('a');
    rl.hit('a');
    expect(rl.isLimited('a')).toBe(true);
    expect(rl.isLimited('b')).toBe(false);
    clock.advance(1001);
    expect(rl.isLimited('a')).toBe(false);
  });
});
