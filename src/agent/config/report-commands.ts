import type { AgentClock } from '../clock.js';
import { isJsonMediaType } from '../push/http.js';
import { Endpoint, parseTargetUrl, siblingUrl, type TargetConfig } from '../push/target.js';
import {
  loadReportConfig,
  numberTargets,
  ReportConfigError,
  saveReportConfig,
} from './report-config.js';

/**
 * Asks Dash who it is (POST …/identity with the node secret). The install id tells two Dash
 * installations apart, so one agent can report to several of them.
 */
export async function fetchInstallId(
  url: URL,
  key: string,
  clock: AgentClock,
  requireHttps = false,
): Promise<string> {
  const endpoint = new Endpoint({ url: url.href, key }, url, requireHttps);
  const res = await endpoint.post(siblingUrl(url, 'identity'), {}, clock.now());
  if (res.status !== 200) {
    throw new ReportConfigError(
      res.status === 401
        ? 'Dash rejected the key (401)'
        : `identity call answered HTTP ${res.status}`,
    );
  }
  let doc: unknown;
  try {
    doc = isJsonMediaType(res.contentType) ? JSON.parse(res.body.toString('utf8')) : undefined;
  } catch {
    doc = undefined;
  }
  const id = (doc as { install_id?: unknown } | undefined)?.install_id;
  if (typeof id !== 'string' || id.trim() === '') {
    throw new ReportConfigError('identity call returned no install_id');
  }
  return id.trim();
}

/**
 * `report install <url> <key>`: checks the key against Dash, then adds the target to the report
 * config, replacing an earlier entry for the same Dash installation.
 */
export async function reportInstall(opts: {
  configPath: string;
  url: string;
  key: string;
  clock: AgentClock;
  requireHttps?: boolean;
}): Promise<{ installId: string; replaced: boolean; id: number }> {
  let url: URL;
  try {
    url = parseTargetUrl(opts.url);
  } catch (err) {
    throw new ReportConfigError((err as Error).message);
  }
  if (opts.requireHttps && url.protocol !== 'https:') {
    throw new ReportConfigError('the URL is not HTTPS and --require-https is set');
  }
  const key = opts.key.trim();
  if (key === '') throw new ReportConfigError('the key is empty');
  const installId = await fetchInstallId(url, key, opts.clock, opts.requireHttps);
  const targets = loadReportConfig(opts.configPath);
  const at = targets.findIndex((t) => t.serverInstallId === installId);
  // A target keeps its id when it is replaced, as Ithiltir-node does.
  const entry: TargetConfig = {
    ...(at >= 0 && targets[at]!.id !== undefined ? { id: targets[at]!.id } : {}),
    url: url.href,
    key,
    serverInstallId: installId,
  };
  if (at >= 0) targets[at] = entry;
  else targets.push(entry);
  const saved = numberTargets(targets);
  saveReportConfig(opts.configPath, saved);
  return {
    installId,
    replaced: at >= 0,
    id: saved.find((t) => t.serverInstallId === installId)!.id!,
  };
}

/** The target named by <id>: its number in report.yaml, or its server_install_id. */
function findTarget(targets: TargetConfig[], id: string, configPath: string): TargetConfig {
  const want = id.trim();
  const target = targets.find((t) => String(t.id) === want || t.serverInstallId === want);
  if (!target) throw new ReportConfigError(`no target with id ${want} in ${configPath}`);
  return target;
}

/** `report update <id> <key>`: replaces the key of one target. */
export function reportUpdate(opts: { configPath: string; id: string; key: string }): TargetConfig {
  const key = opts.key.trim();
  if (key === '') throw new ReportConfigError('the key is empty');
  const targets = loadReportConfig(opts.configPath);
  const target = findTarget(targets, opts.id, opts.configPath);
  target.key = key;
  saveReportConfig(opts.configPath, targets);
  return target;
}

/** `report remove <id>`: drops one target; the others keep their ids. */
export function reportRemove(opts: { configPath: string; id: string }): void {
  const targets = loadReportConfig(opts.configPath);
  const target = findTarget(targets, opts.id, opts.configPath);
  saveReportConfig(
    opts.configPath,
    targets.filter((t) => t !== target),
  );
}

/** One `report list` line, as Ithiltir-node prints it: id, URL and install id, tab-separated. */
export function targetLine(t: TargetConfig): string {
  return `${t.id ?? ''}\t${t.url}\t${t.serverInstallId ?? ''}`;
}
