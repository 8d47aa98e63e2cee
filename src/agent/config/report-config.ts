import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { TargetConfig } from '../push/target.js';

export const DEFAULT_REPORT_CONFIG = '/var/lib/nodeagent/report.yaml';

/** The report config path: NODE_REPORT_CONFIG, else /var/lib/nodeagent/report.yaml. */
export function reportConfigPath(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.NODE_REPORT_CONFIG?.trim();
  return fromEnv ? fromEnv : DEFAULT_REPORT_CONFIG;
}

export class ReportConfigError extends Error {}

const KEYS: Record<string, keyof TargetConfig> = {
  url: 'url',
  key: 'key',
  server_install_id: 'serverInstallId',
};

/** Drops a trailing "# comment" (YAML needs whitespace before the #). */
function stripComment(rest: string): string {
  return rest.replace(/(^|\s)#.*$/, '').trim();
}

function parseScalar(raw: string, line: number): string {
  const value = raw.trim();
  const bad = (): ReportConfigError => new ReportConfigError(`line ${line}: bad quoted string`);
  if (value.startsWith('"')) {
    let end = 1;
    while (end < value.length && value[end] !== '"') end += value[end] === '\\' ? 2 : 1;
    if (end >= value.length || stripComment(value.slice(end + 1)) !== '') throw bad();
    try {
      return JSON.parse(value.slice(0, end + 1)) as string;
    } catch {
      throw bad();
    }
  }
  if (value.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'(.*)$/.exec(value);
    if (!m || stripComment(m[2]!) !== '') throw bad();
    return m[1]!.replace(/''/g, "'");
  }
  return stripComment(value);
}

/**
 * Reads the report config, a small YAML subset written by `report install`:
 *
 *   targets:
 *     - url: "https://dash.example.com/api/node/metrics"
 *       key: "node secret"
 *       server_install_id: "server_…"
 *
 * Comments and blank lines are allowed; values may be bare, single- or double-quoted (JSON escapes).
 */
export function parseReportConfig(text: string): TargetConfig[] {
  const targets: Partial<TargetConfig>[] = [];
  let inTargets = false;
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const n = i + 1;
    const line = rawLine.trimEnd();
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    if (/^targets:\s*(\[\])?\s*(#.*)?$/.test(line)) {
      inTargets = true;
      return;
    }
    const item = /^\s+-\s+(\w+):(.*)$/.exec(line);
    const cont = /^\s+(\w+):(.*)$/.exec(line);
    if (!inTargets || (!item && !cont))
      throw new ReportConfigError(`line ${n}: unexpected "${line.trim()}"`);
    if (item) targets.push({});
    const [, name, value] = (item ?? cont)!;
    const current = targets[targets.length - 1];
    if (!current) throw new ReportConfigError(`line ${n}: field outside a target`);
    const field = KEYS[name!];
    if (field) current[field] = parseScalar(value!, n);
  });
  return targets.map((t, i) => {
    if (!t.url || !t.key) throw new ReportConfigError(`target ${i + 1}: url and key are required`);
    return {
      url: t.url,
      key: t.key,
      ...(t.serverInstallId ? { serverInstallId: t.serverInstallId } : {}),
    };
  });
}

export function formatReportConfig(targets: readonly TargetConfig[]): string {
  const lines = ['# nodeagent report targets (written by `nodeagent report install`)', 'targets:'];
  if (targets.length === 0) lines[1] = 'targets: []';
  for (const t of targets) {
    lines.push(`  - url: ${JSON.stringify(t.url)}`, `    key: ${JSON.stringify(t.key)}`);
    if (t.serverInstallId)
      lines.push(`    server_install_id: ${JSON.stringify(t.serverInstallId)}`);
  }
  return lines.join('\n') + '\n';
}

/** Targets in the config file; an absent file means no targets. */
export function loadReportConfig(path: string): TargetConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ReportConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return parseReportConfig(text);
}

/**
 * Writes the config atomically: a new 0600 file next to it, flushed to disk, then renamed over the
 * old one, so a crash leaves either the old or the new file and the secret is never world-readable.
 */
export function saveReportConfig(path: string, targets: readonly TargetConfig[]): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, formatReportConfig(targets));
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
