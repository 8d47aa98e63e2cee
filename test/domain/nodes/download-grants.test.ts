import { describe, expect, it } from 'vitest';
import { DownloadGrants, GRANT_TTL_MS } from '../../../src/domain/nodes/download-grants.js';
import { randomAlnum } from '../../../src/platform/crypto.js';
import { FakeClock } from '../../support/fake-clock.js';

describe('download grants', () => {
  it('allow exactly one asset path, reusable until 30 minutes have passed', () => {
    const clock = new FakeClock();
    const grants = new DownloadGrants(clock, randomAlnum);
    const g = grants.issue('linux/node_linux_amd64');
    expect(g.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(g.expiresAt).toBe(clock.now() + GRANT_TTL_MS);
    expect(grants.allows(g.token, 'linux/node_linux_amd64')).toBe(true);
    expect(grants.allows(g.token, 'linux/node_linux_amd64')).toBe(true);
    expect(grants.allows(g.token, 'linux/node_linux_arm64')).toBe(false);
    expect(grants.allows('x'.repeat(32), 'linux/node_linux_amd64')).toBe(false);
    clock.advance(GRANT_TTL_MS - 1);
    expect(grants.allows(g.token, 'linux/node_linux_amd64')).toBe(true);
    clock.advance(1);
    expect(grants.allows(g.token, 'linux/node_linux_amd64')).toBe(false);
  });

  it('forgets expired grants when issuing new ones', () => {
    const clock = new FakeClock();
    const grants = new DownloadGrants(clock, randomAlnum);
    grants.issue('a');
    grants.issue('b');
    clock.advance(GRANT_TTL_MS);
    grants.issue('c');
    expect(grants.size).toBe(1);
  });
});
