import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, CONFIG_KEYS } from '../../src/config/load.js';
import { parseDuration, parseListen } from '../../src/config/parsers.js';
import { tempHome } from '../support/build-app.js';

describe('configuration', () => {
  it('has working defaults with nothing set', () => {
    const home = tempHome();
    const c = loadConfig({ DASH_HOME: home });
    expect(c.home).toBe(home);
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.database).toEqual({ kind: 'sqlite', path: join(home, 'dash.db') });
    expect(c.nodeOfflineThresholdMs).toBe(17_000);
    expect(c.rawRetentionDays).toBe(8);
    expect(c.logLevel).toBe('info');
    expect(c.sessionTtlMs).toBe(14 * 86_400_000);
    expect(c.accessTokenTtlMs).toBe(15 * 60_000);
    expect(c.timezone.length).toBeGreaterThan(0);
  });

  it('reads config.yaml from DASH_HOME and lets the environment override it', () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'listen: 0.0.0.0:9000\ntimezone: Europe/Berlin\nnode_offline_threshold: 20s\npublic_url: https://dash.example.com\n',
    );
    const c = loadConfig({ DASH_HOME: home, DASH_TIMEZONE: 'Asia/Tokyo' });
    expect(c.listen).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(c.timezone).toBe('Asia/Tokyo');
    expect(c.nodeOfflineThresholdMs).toBe(20_000);
    expect(c.publicUrl).toBe('https://dash.example.com');
  });

  it('rejects unknown YAML keys, naming them', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'listen: 127.0.0.1:1\nlisten_port: 5\n');
    expect(() => loadConfig({ DASH_HOME: home })).toThrow(/unknown key "listen_port"/);
  });

  it.each([
    ['DASH_LISTEN', 'nope'],
    ['DASH_LISTEN', '127.0.0.1:70000'],
    ['DASH_TIMEZONE', 'Mars/Olympus'],
    ['DASH_PUBLIC_URL', 'ftp://x'],
    ['DASH_PUBLIC_URL', 'https://x.example/path'],
    ['DASH_LOG_LEVEL', 'loud'],
    ['DASH_NODE_OFFLINE_THRESHOLD', '5 parsecs'],
    ['DASH_NODE_OFFLINE_THRESHOLD', '0s'],
    ['DASH_ADMIN_PASSWORD', 'short'],
    ['DASH_HISTORY_RAW_RETENTION_DAYS', '1'],
    ['DASH_HISTORY_MAX_BYTES', '1000'],
    ['DASH_HISTORY_MAX_BYTES', '10 parsecs'],
    ['DASH_HISTORY_SEAL_INTERVAL', '7m'],
    ['DASH_HISTORY_SEAL_INTERVAL', '90s'],
    ['DASH_HISTORY_SEAL_INTERVAL', '2h'],
    ['DASH_TRUSTED_PROXIES', 'not-an-ip'],
    ['DASH_LOCAL_AGENT', 'maybe'],
  ])('stops on invalid %s=%s with a message naming the key', (key, value) => {
    const run = () => loadConfig({ DASH_HOME: tempHome(), [key]: value });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(key);
  });

  it('reads the traffic flush interval: whole seconds dividing 5 minutes', () => {
    expect(loadConfig({ DASH_HOME: tempHome() }).trafficFlushMs).toBeUndefined();
    const at = (v: string) =>
      loadConfig({ DASH_HOME: tempHome(), DASH_TRAFFIC_FLUSH_INTERVAL: v }).trafficFlushMs;
    expect(at('30s')).toBe(30_000);
    expect(at('5m')).toBe(300_000);
    for (const bad of ['7s', '45s', '5s', '10m', '1500ms']) {
      expect(() => at(bad)).toThrow('DASH_TRAFFIC_FLUSH_INTERVAL');
    }
  });

  it('reads the ingest commit delay: whole milliseconds from 0 to 100', () => {
    expect(loadConfig({ DASH_HOME: tempHome() }).ingestCommitDelayMs).toBeUndefined();
    const at = (v: string) =>
      loadConfig({ DASH_HOME: tempHome(), DASH_INGEST_COMMIT_DELAY: v }).ingestCommitDelayMs;
    expect(at('0ms')).toBe(0);
    expect(at('10ms')).toBe(10);
    expect(at('100ms')).toBe(100);
    // The SQLite engine takes it with its database.
    const c = loadConfig({ DASH_HOME: tempHome(), DASH_INGEST_COMMIT_DELAY: '3ms' });
    expect(c.database).toMatchObject({ kind: 'sqlite', commitDelayMs: 3 });
    for (const bad of ['101ms', '1s', '-5ms', '5', 'soon']) {
      expect(() => at(bad)).toThrow(ConfigError);
      expect(() => at(bad)).toThrow('DASH_INGEST_COMMIT_DELAY');
    }
  });

  it('reads the alerts startup grace: whole seconds from 0 to 60', () => {
    expect(loadConfig({ DASH_HOME: tempHome() }).alertsStartupGraceMs).toBeUndefined();
    const at = (v: string) =>
      loadConfig({ DASH_HOME: tempHome(), DASH_ALERTS_STARTUP_GRACE: v }).alertsStartupGraceMs;
    expect(at('0s')).toBe(0);
    expect(at('5s')).toBe(5000);
    expect(at('1m')).toBe(60_000);
    for (const bad of ['61s', '1500ms', '-1s', 'soon']) {
      expect(() => at(bad)).toThrow(ConfigError);
      expect(() => at(bad)).toThrow('DASH_ALERTS_STARTUP_GRACE');
    }
  });

  it('reads the history size budget and seal interval', () => {
    const d = loadConfig({ DASH_HOME: tempHome() });
    expect(d.historyMaxBytes).toBeUndefined();
    expect(d.historySealMs).toBe(300_000);
    const c = loadConfig({
      DASH_HOME: tempHome(),
      DASH_HISTORY_MAX_BYTES: '20G',
      DASH_HISTORY_SEAL_INTERVAL: '15m',
    });
    expect(c.historyMaxBytes).toBe(20 * 2 ** 30);
    expect(c.historySealMs).toBe(900_000);
    expect(
      loadConfig({ DASH_HOME: tempHome(), DASH_HISTORY_MAX_BYTES: '2097152' }).historyMaxBytes,
    ).toBe(2 ** 21);
  });

  it('names the YAML key of an invalid file value', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'timezone: Nowhere/Land\n');
    expect(() => loadConfig({ DASH_HOME: home })).toThrow(/timezone/);
  });

  it('selects PostgreSQL or a SQLite path from DASH_DATABASE_URL', () => {
    expect(
      loadConfig({ DASH_HOME: tempHome(), DASH_DATABASE_URL: 'postgres://u@h/db' }).database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
    expect(
      loadConfig({ DASH_HOME: tempHome(), DASH_DATABASE_URL: 'sqlite:/tmp/x.db' }).database,
    ).toEqual({
      kind: 'sqlite',
      path: '/tmp/x.db',
    });
  });

  it('reads ingest_threads: 0 (from the cores) by default, 1 to 16 when set', () => {
    expect(loadConfig({ DASH_HOME: tempHome() }).ingestThreads).toBe(0);
    expect(loadConfig({ DASH_HOME: tempHome(), DASH_INGEST_THREADS: '3' }).ingestThreads).toBe(3);
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'ingest_threads: 1\n');
    expect(loadConfig({ DASH_HOME: home }).ingestThreads).toBe(1);
    for (const bad of ['-1', '17', '1.5', 'two']) {
      expect(() => loadConfig({ DASH_HOME: tempHome(), DASH_INGEST_THREADS: bad })).toThrow(
        /DASH_INGEST_THREADS.*integer from 0 to 16/,
      );
    }
  });

  it('documents every key in docs/configuration.md', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const k of CONFIG_KEYS) {
      expect(doc, k.env).toContain(k.env);
      if (k.yaml) expect(doc, k.yaml).toContain(`\`${k.yaml}\``);
    }
    expect(doc).toContain('DASH_HOME');
  });
});

describe('self-update keys', () => {
  it('default to no feed, the pinned key in DASH_HOME and a 03:00-05:00 window', () => {
    const c = loadConfig({ DASH_HOME: tempHome() });
    expect(c.update).toEqual({
      feed: '',
      publicKeyFile: undefined,
      window: { start: 180, end: 300 },
      checkIntervalMs: 3_600_000,
    });
  });

  it('parse the feed, key, window and interval and reject a bad window', () => {
    const c = loadConfig({
      DASH_HOME: tempHome(),
      DASH_UPDATE_FEED: 'https://releases.example.com/dash/',
      DASH_UPDATE_PUBLIC_KEY: '/etc/dash/release.pub.pem',
      DASH_UPDATE_WINDOW: '22:30-01:00',
      DASH_UPDATE_CHECK_INTERVAL: '6h',
    });
    expect(c.update).toEqual({
      feed: 'https://releases.example.com/dash/',
      publicKeyFile: '/etc/dash/release.pub.pem',
      window: { start: 22 * 60 + 30, end: 60 },
      checkIntervalMs: 6 * 3_600_000,
    });
    for (const bad of ['3-5', '25:00-01:00', '03:00-03:00', '03:61-04:00']) {
      expect(() => loadConfig({ DASH_HOME: tempHome(), DASH_UPDATE_WINDOW: bad })).toThrow(
        /DASH_UPDATE_WINDOW/,
      );
    }
    expect(() => loadConfig({ DASH_HOME: tempHome(), DASH_UPDATE_CHECK_INTERVAL: '1m' })).toThrow(
      ConfigError,
    );
  });
});

describe('parsers', () => {
  it('parses durations', () => {
    expect(parseDuration('17s')).toBe(17_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('14d')).toBe(14 * 86_400_000);
    expect(() => parseDuration('17')).toThrow();
    expect(() => parseDuration('s')).toThrow();
  });

  it('parses listen addresses', () => {
    expect(parseListen(':8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseListen('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(() => parseListen('8080')).toThrow();
  });
});
