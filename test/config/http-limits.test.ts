import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../src/config/http-limits.js';
import { tempHome } from '../support/build-app.js';

describe('connection limit keys', () => {
  it('defaults every limit', () => {
    expect(loadConfig({ DASH_HOME: tempHome() }).connections).toEqual(DEFAULT_CONNECTION_LIMITS);
  });

  it('reads durations and the cap from the environment', () => {
    const c = loadConfig({
      DASH_HOME: tempHome(),
      DASH_HTTP_HEADERS_TIMEOUT: '5s',
      DASH_HTTP_REQUEST_TIMEOUT: '1m',
      DASH_HTTP_IDLE_TIMEOUT: '30s',
      DASH_HTTP_KEEP_ALIVE_TIMEOUT: '90s',
      DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    });
    expect(c.connections).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 90_000,
      maxConnectionsPerAddress: 0,
    });
  });

  it('refuses a headers timeout longer than the request timeout, and nonsense', () => {
    const home = tempHome();
    expect(() =>
      loadConfig({
        DASH_HOME: home,
        DASH_HTTP_HEADERS_TIMEOUT: '2m',
        DASH_HTTP_REQUEST_TIMEOUT: '1m',
      }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ DASH_HOME: home, DASH_HTTP_IDLE_TIMEOUT: '10ms' })).toThrow(
      /DASH_HTTP_IDLE_TIMEOUT/,
    );
    expect(() =>
      loadConfig({ DASH_HOME: home, DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '-1' }),
    ).toThrow(/DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS/);
  });
});
