import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderInstallScript } from '../../src/deploy/install-scripts.js';
import { tempHome } from '../support/build-app.js';

describe('install scripts', () => {
  it('renders the shell installer with the public scheme and host', () => {
    const s = renderInstallScript('linux', 'https://dash.example.com:8443', '0.3.0');
    expect(s.contentType).toBe('text/x-shellscript; charset=utf-8');
    expect(s.body).toContain("PLATFORM='linux'");
    expect(s.body).toContain("DASH_SCHEME='https'");
    expect(s.body).toContain("AGENT_VERSION='0.3.0'");
    expect(s.body).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(renderInstallScript('macos', 'http://10.0.0.1', 'unknown').body).toContain(
      "PLATFORM='macos'",
    );
  });

  it('produces shell scripts bash can parse', () => {
    for (const platform of ['linux', 'macos'] as const) {
      const file = join(tempHome(), 'install.sh');
      writeFileSync(file, renderInstallScript(platform, 'http://127.0.0.1:8080', '0.3.0').body);
      const res = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
    }
  });

  it('renders the PowerShell installer as plain text', () => {
    const s = renderInstallScript('windows', 'https://dash.example.com', '0.3.0');
    expect(s.contentType).toBe('text/plain; charset=utf-8');
    expect(s.body).toContain("$DashScheme = 'https'");
    expect(s.body).toContain('X-Node-Secret');
    expect(s.body).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });

  it('never substitutes a version that could escape its quotes or directory', () => {
    for (const bad of ["0.3.0'; rm -rf /", '..', '../x', 'a/b']) {
      expect(renderInstallScript('linux', 'http://h', bad).body).toContain(
        "AGENT_VERSION='unknown'",
      );
    }
  });
});
