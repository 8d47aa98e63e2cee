import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  reportInstall,
  reportRemove,
  reportUpdate,
} from '../../../src/agent/config/report-commands.js';
import {
  DEFAULT_REPORT_CONFIG,
  loadReportConfig,
  parseReportConfig,
  ReportConfigError,
  reportConfigPath,
  saveReportConfig,
} from '../../../src/agent/config/report-config.js';
import { FakeAgentClock } from '../support/agent-fakes.js';
import { StubDash } from '../support/stub-dash.js';

const tempConfig = (): string =>
  join(mkdtempSync(join(tmpdir(), 'nodeagent-cfg-')), 'sub', 'report.yaml');

const stubs: StubDash[] = [];
async function stub(): Promise<StubDash> {
  const s = await new StubDash().start();
  stubs.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
});

describe('report config file', () => {
  it('lives at NODE_REPORT_CONFIG, else /var/lib/nodeagent/report.yaml', () => {
    expect(reportConfigPath({})).toBe(DEFAULT_REPORT_CONFIG);
    expect(DEFAULT_REPORT_CONFIG).toBe('/var/lib/nodeagent/report.yaml');
    expect(reportConfigPath({ NODE_REPORT_CONFIG: '/etc/x.yaml' })).toBe('/etc/x.yaml');
    expect(reportConfigPath({ NODE_REPORT_CONFIG: '  ' })).toBe(DEFAULT_REPORT_CONFIG);
  });

  it('round-trips keys with quotes, hashes, backslashes and unicode', () => {
    const path = tempConfig();
    const targets = [
      {
        url: 'https://a.example/api/node/metrics',
        key: `we"ird #key\\with 'all'`,
        serverInstallId: 'server_0a',
      },
      { url: 'http://b.example:8080/api/node/metrics', key: 'κλειδί-123' },
    ];
    saveReportConfig(path, targets);
    expect(loadReportConfig(path)).toEqual(targets.map((t, i) => ({ id: i + 1, ...t })));
  });

  it('is written 0600, through a temporary file that does not stay behind', () => {
    const path = tempConfig();
    saveReportConfig(path, [{ url: 'http://a/api/node/metrics', key: 'k1' }]);
    saveReportConfig(path, [{ url: 'http://a/api/node/metrics', key: 'k2' }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(path, '..'))).toEqual(['report.yaml']);
    expect(loadReportConfig(path)[0]!.key).toBe('k2');
  });

  it('reads hand-written YAML with comments and bare or single-quoted values', () => {
    expect(
      parseReportConfig(
        [
          '# managed by hand',
          'targets:',
          '  - url: https://dash.example/api/node/metrics   # primary',
          "    key: 'it''s secret'",
          '    server_install_id: server_ff',
          '    unknown_field: ignored',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      {
        id: 1,
        url: 'https://dash.example/api/node/metrics',
        key: "it's secret",
        serverInstallId: 'server_ff',
      },
    ]);
  });

  it('treats a missing file as no targets and rejects malformed ones', () => {
    expect(loadReportConfig(join(tmpdir(), 'does-not-exist', 'report.yaml'))).toEqual([]);
    expect(() => parseReportConfig('targets:\n  - url: "http://x/metrics"\n')).toThrow(
      ReportConfigError,
    );
    expect(() => parseReportConfig('foo: bar\n')).toThrow(ReportConfigError);
    expect(() => parseReportConfig('targets:\n  - url: "unterminated\n')).toThrow(
      ReportConfigError,
    );
  });
});

describe("Ithiltir-node's report.yaml (drop-in)", () => {
  const ITHILTIR_FILE = [
    'version: 1',
    'targets:',
    '  - id: 3',
    '    url: https://dash.example/api/node/metrics',
    '    key: ith-secret',
    '    server_install_id: server_aa',
    '  - id: 7',
    '    url: http://other.example:8080/api/node/metrics',
    '    key: second',
    '',
  ].join('\n');

  it('reads its version and ids, and writes them back in the same shape', () => {
    const targets = parseReportConfig(ITHILTIR_FILE);
    expect(targets).toEqual([
      {
        id: 3,
        url: 'https://dash.example/api/node/metrics',
        key: 'ith-secret',
        serverInstallId: 'server_aa',
      },
      { id: 7, url: 'http://other.example:8080/api/node/metrics', key: 'second' },
    ]);
    const path = tempConfig();
    saveReportConfig(path, [...targets, { url: 'http://third/api/node/metrics', key: 'k3' }]);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^version: 1$/m);
    expect(text).toContain(
      '  - id: 3\n    url: "https://dash.example/api/node/metrics"\n    key: "ith-secret"\n    server_install_id: "server_aa"\n',
    );
    expect(loadReportConfig(path).map((t) => t.id)).toEqual([3, 7, 8]);
  });

  it('refuses another version and duplicate or invalid ids', () => {
    expect(() => parseReportConfig('version: 2\ntargets: []\n')).toThrow(/version must be 1/);
    const dup =
      'targets:\n  - id: 1\n    url: http://a/metrics\n    key: a\n  - id: 1\n    url: http://b/metrics\n    key: b\n';
    expect(() => parseReportConfig(dup)).toThrow(/unique positive integer/);
    expect(() =>
      parseReportConfig('targets:\n  - id: x\n    url: http://a/metrics\n    key: a\n'),
    ).toThrow(ReportConfigError);
  });

  it('is found where Ithiltir-node keeps it when the agent runs as …/ithiltir-node', () => {
    expect(
      reportConfigPath({}, '/var/lib/ithiltir-node/releases/0.3.0/ithiltir-node', 'linux'),
    ).toBe('/var/lib/ithiltir-node/report.yaml');
    expect(
      reportConfigPath({ ITHILTIR_NODE_REPORT_CONFIG: '/etc/ith.yaml' }, undefined, 'linux'),
    ).toBe('/etc/ith.yaml');
    expect(
      reportConfigPath({ NODEAGENT_HOME: '/opt/na' }, '/opt/na/current/nodeagent', 'linux'),
    ).toBe('/opt/na/report.yaml');
    expect(
      reportConfigPath(
        { ProgramData: 'D:\\PD' },
        'D:\\PD\\Ithiltir-node\\bin\\ithiltir-node.exe',
        'win32',
      ),
    ).toBe('D:\\PD\\Ithiltir-node\\report.yaml');
    expect(reportConfigPath({}, 'C:\\ProgramData\\nodeagent\\bin\\nodeagent.exe', 'win32')).toBe(
      'C:\\ProgramData\\nodeagent\\report.yaml',
    );
  });

  it('update and remove name a target by its number or install id; the others keep theirs', () => {
    const path = tempConfig();
    saveReportConfig(path, parseReportConfig(ITHILTIR_FILE));
    expect(reportUpdate({ configPath: path, id: '7', key: 'new-key' }).key).toBe('new-key');
    reportUpdate({ configPath: path, id: 'server_aa', key: 'rotated' });
    reportRemove({ configPath: path, id: '3' });
    expect(loadReportConfig(path)).toEqual([
      { id: 7, url: 'http://other.example:8080/api/node/metrics', key: 'new-key' },
    ]);
    expect(() => reportRemove({ configPath: path, id: '3' })).toThrow(/no target with id 3/);
  });
});

describe('report install', () => {
  it('checks the key with the identity URL and records the target with its install id', async () => {
    const s = await stub();
    const configPath = tempConfig();
    const r = await reportInstall({
      configPath,
      url: s.url(),
      key: ' node-secret ',
      clock: new FakeAgentClock(),
    });
    expect(r).toEqual({ installId: `server_${'ab'.repeat(16)}`, replaced: false, id: 1 });
    expect(s.received).toHaveLength(1);
    expect(s.received[0]).toMatchObject({
      method: 'POST',
      path: '/api/node/identity',
      secret: 'node-secret',
      contentType: 'application/json',
      json: {},
    });
    expect(loadReportConfig(configPath)).toEqual([
      { id: 1, url: s.url(), key: 'node-secret', serverInstallId: `server_${'ab'.repeat(16)}` },
    ]);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
  });

  it('replaces the entry of the same Dash and appends another Dash', async () => {
    const first = await stub();
    const second = await stub();
    second.responder = (req, res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ install_id: 'server_second', created: true }));
    const configPath = tempConfig();
    const clock = new FakeAgentClock();
    await reportInstall({ configPath, url: first.url(), key: 'k1', clock });
    const again = await reportInstall({ configPath, url: first.url(), key: 'k1-new', clock });
    expect(again.replaced).toBe(true);
    await reportInstall({ configPath, url: second.url(), key: 'k2', clock });
    expect(loadReportConfig(configPath).map((t) => [t.serverInstallId, t.key])).toEqual([
      [`server_${'ab'.repeat(16)}`, 'k1-new'],
      ['server_second', 'k2'],
    ]);
  });

  it('requires a URL ending with /metrics and leaves the config alone on any failure', async () => {
    const s = await stub();
    const configPath = tempConfig();
    const clock = new FakeAgentClock();
    await expect(
      reportInstall({ configPath, url: s.url('/api/node/static'), key: 'k', clock }),
    ).rejects.toThrow('/metrics');
    await expect(reportInstall({ configPath, url: 'not a url', key: 'k', clock })).rejects.toThrow(
      ReportConfigError,
    );
    s.responder = (req, res) =>
      res
        .writeHead(401, { 'Content-Type': 'application/json' })
        .end('{"code":"unauthorized","message":"x"}');
    await expect(reportInstall({ configPath, url: s.url(), key: 'bad', clock })).rejects.toThrow(
      '401',
    );
    s.responder = (req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    await expect(reportInstall({ configPath, url: s.url(), key: 'k', clock })).rejects.toThrow(
      'install_id',
    );
    await expect(
      reportInstall({ configPath, url: s.url(), key: 'k', clock, requireHttps: true }),
    ).rejects.toThrow('HTTPS');
    expect(loadReportConfig(configPath)).toEqual([]);
  });
});

describe('report update', () => {
  it('replaces the key of the target with that install id only', () => {
    const configPath = tempConfig();
    saveReportConfig(configPath, [
      { url: 'https://a/api/node/metrics', key: 'old-a', serverInstallId: 'server_a' },
      { url: 'https://b/api/node/metrics', key: 'old-b', serverInstallId: 'server_b' },
    ]);
    reportUpdate({ configPath, id: 'server_b', key: 'new-b' });
    expect(loadReportConfig(configPath).map((t) => t.key)).toEqual(['old-a', 'new-b']);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    expect(() => reportUpdate({ configPath, id: 'server_c', key: 'x' })).toThrow('server_c');
    expect(() => reportUpdate({ configPath, id: 'server_a', key: ' ' })).toThrow('empty');
  });
});
