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
import { basename, dirname, join, win32 } from 'node:path';
import type { TargetConfig } from '../push/target.js';
import { DEFAULT_LAYOUT_ROOT, releaseLayouts } from '../update/layout.js';
import { randomHex } from '../random-hex.js';

export const DEFAULT_REPORT_CONFIG = '/var/lib/nodeagent/report.yaml';

/** The one report config format version, shared with Ithiltir-node's report.yaml. */
const CONFIG_VERSION = 1;

/**
 * The report config path: $NODE_REPORT_CONFIG, else $ITHILTIR_NODE_REPORT_CONFIG, else next to the
 * agent's layout: /var/lib/nodeagent/report.yaml ($NODEAGENT_HOME), or, for an agent that took
 * Ithiltir-node's place (started as …/ithiltir-node), Ithiltir-node's own report.yaml, so the
 * targets and secrets it had keep working. On Windows the directory is under %ProgramData%.
 */
export function reportConfigPath(
  env: Record<string, string | undefined> = process.env,
  agentPath?: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const fromEnv = env.NODE_REPORT_CONFIG?.trim() || env.ITHILTIR_NODE_REPORT_CONFIG?.trim();
  if (fromEnv) return fromEnv;
  const file = agentPath
    ? platform === 'win32'
      ? win32.basename(agentPath)
      : basename(agentPath)
    : '';
  const name = file.replace(/\.exe$/i, '');
  const ithiltir = name === 'ithiltir-node';
  if (platform === 'win32') {
    const base = env.ProgramData?.trim() || 'C:\\ProgramData';
    return win32.join(base, ithiltir ? 'Ithiltir-node' : 'nodeagent', 'report.yaml');
  }
  const [own, theirs] = releaseLayouts(env);
  const root = ithiltir ? theirs!.root : env.NODEAGENT_HOME ? own!.root : DEFAULT_LAYOUT_ROOT;
  return join(root, 'report.yaml');
}

export class ReportConfigError extends Error {}

const KEYS: Record<string, 'url' | 'key' | 'serverInstallId' | 'id'> = {
  id: 'id',
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
 * Reads the report config, the YAML subset Ithiltir-node's report.yaml uses (and that
 * `report install` writes), so either agent reads the other's file:
 *
 *   version: 1
 *   targets:
 *     - id: 1
 *       url: "https://dash.example.com/api/node/metrics"
 *       key: "node secret"
 *       server_install_id: "server_…"
 *
 * Comments and blank lines are allowed; values may be bare, single- or double-quoted (JSON escapes).
 * Files without `version` or `id` (older Dash agents) are read too; ids are then numbered 1, 2, ….
 */
export function parseReportConfig(text: string): TargetConfig[] {
  const targets: Partial<Record<'url' | 'key' | 'serverInstallId' | 'id', string>>[] = [];
  let inTargets = false;
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const n = i + 1;
    const line = rawLine.trimEnd();
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const version = /^version:(.*)$/.exec(line);
    if (version) {
      if (parseScalar(version[1]!, n) !== String(CONFIG_VERSION)) {
        throw new ReportConfigError(`line ${n}: report config version must be ${CONFIG_VERSION}`);
      }
      return;
    }
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
  const seen = new Set<number>();
  const parsed = targets.map((t, i) => {
    if (!t.url || !t.key) throw new ReportConfigError(`target ${i + 1}: url and key are required`);
    let id: number | undefined;
    if (t.id !== undefined) {
      id = Number(t.id);
      if (!/^\d+$/.test(t.id) || id <= 0 || !Number.isSafeInteger(id) || seen.has(id)) {
        throw new ReportConfigError(`target ${i + 1}: id must be a unique positive integer`);
      }
      seen.add(id);
    }
    return {
      ...(id !== undefined ? { id } : {}),
      url: t.url,
      key: t.key,
      ...(t.serverInstallId ? { serverInstallId: t.serverInstallId } : {}),
    };
  });
  return numberTargets(parsed);
}

/** Gives every target without an id the next free one (Ithiltir-node numbers from 1). */
export function numberTargets(targets: TargetConfig[]): TargetConfig[] {
  let next = Math.max(0, ...targets.map((t) => t.id ?? 0));
  return targets.map((t) => (t.id !== undefined ? t : { id: ++next, ...t }));
}

export function formatReportConfig(targets: readonly TargetConfig[]): string {
  const lines = [
    '# report targets (written by `nodeagent report install`; Ithiltir-node reads it too)',
    `version: ${CONFIG_VERSION}`,
    'targets:',
  ];
  if (targets.length === 0) lines[2] = 'targets: []';
  for (const t of numberTargets([...targets])) {
    lines.push(
      `  - id: ${t.id}`,
      `    url: ${JSON.stringify(t.url)}`,
      `    key: ${JSON.stringify(t.key)}`,
    );
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
  const temp = `${path}.tmp-${process.pid}-${randomHex(4)}`;
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
