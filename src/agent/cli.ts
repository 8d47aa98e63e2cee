import { systemAgentClock } from './clock.js';
import { reportConfigPath, loadReportConfig, ReportConfigError } from './config/report-config.js';
import { reportInstall, reportRemove, reportUpdate, targetLine } from './config/report-commands.js';
import { agentPath } from './build-info.js';
import { consoleLog } from './log.js';
import { DEFAULT_INTERVAL_MS, startAgent } from './run.js';
import { detectLayout } from './update/layout.js';
import { AGENT_VERSION } from './version.js';

/** Exit status after installing an update: non-zero, so Restart=on-failure restarts us too. */
export const RESTART_EXIT_CODE = 75;

const USAGE = `usage:
  nodeagent push [interval_seconds] [--net if1,if2] [--debug] [--require-https]
  nodeagent report install <url> <key> [--require-https]
  nodeagent report update <id> <key>
  nodeagent report remove <id>
  nodeagent report list
  nodeagent --version

<id> is a target's number in the report config (or its server_install_id). The report config is
${'$'}NODE_REPORT_CONFIG, else /var/lib/nodeagent/report.yaml; an agent installed in place of
Ithiltir-node (…/ithiltir-node) keeps using /var/lib/ithiltir-node/report.yaml.
`;

class UsageError extends Error {}

export interface PushArgs {
  intervalMs: number;
  interfaces?: string[];
  debug: boolean;
  requireHttps: boolean;
}

export function parsePushArgs(args: readonly string[]): PushArgs {
  const out: PushArgs = { intervalMs: DEFAULT_INTERVAL_MS, debug: false, requireHttps: false };
  let intervalSeen = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--debug') out.debug = true;
    else if (a === '--require-https') out.requireHttps = true;
    else if (a === '--net' || a.startsWith('--net=')) {
      const value = a === '--net' ? args[++i] : a.slice('--net='.length);
      const names = (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length === 0) throw new UsageError('--net needs a comma-separated interface list');
      out.interfaces = names;
    } else if (!intervalSeen && /^\d+$/.test(a)) {
      const seconds = Number(a);
      if (seconds < 1 || seconds > 86_400)
        throw new UsageError('interval must be 1..86400 seconds');
      out.intervalMs = seconds * 1000;
      intervalSeen = true;
    } else throw new UsageError(`unexpected argument: ${a}`);
  }
  return out;
}

function push(args: readonly string[]): Promise<number> {
  const opts = parsePushArgs(args);
  const log = consoleLog(opts.debug);
  const configPath = reportConfigPath(process.env, agentPath());
  const targets = loadReportConfig(configPath);
  if (targets.length === 0) {
    log.error(`no targets in ${configPath}; run: nodeagent report install <url> <key>`);
    return Promise.resolve(2);
  }
  const layout = detectLayout({
    platform: process.platform,
    env: process.env,
    scriptPath: agentPath(),
  });
  let finishing = false;
  return new Promise((resolve) => {
    const finish = (code: number): void => {
      if (finishing) return;
      finishing = true;
      void agent.stop().finally(() => resolve(code));
    };
    const agent = startAgent({
      targets,
      intervalMs: opts.intervalMs,
      clock: systemAgentClock,
      log,
      requireHttps: opts.requireHttps,
      ...(opts.interfaces ? { interfaces: opts.interfaces } : {}),
      ...(layout ? { updates: { layout, restart: () => finish(RESTART_EXIT_CODE) } } : {}),
    });
    if (agent.targets === 0) {
      log.error('no usable targets');
      finish(2);
      return;
    }
    log.info(
      `nodeagent ${AGENT_VERSION} reporting every ${opts.intervalMs / 1000}s to ${agent.targets} target(s)` +
        (layout ? ' (managed: updates enabled)' : ''),
    );
    process.once('SIGTERM', () => finish(0));
    process.once('SIGINT', () => finish(0));
  });
}

async function report(args: readonly string[]): Promise<number> {
  const requireHttps = args.includes('--require-https');
  const [sub, ...params] = args.filter((a) => a !== '--require-https');
  const configPath = reportConfigPath(process.env, agentPath());
  const arity: Record<string, number> = { install: 2, update: 2, remove: 1, list: 0 };
  if (sub === undefined || arity[sub] === undefined) {
    throw new UsageError(`unknown report command: ${sub ?? ''}`);
  }
  if (params.length !== arity[sub])
    throw new UsageError(`report ${sub} needs ${arity[sub]} argument(s)`);
  const [a = '', b = ''] = params;
  if (sub === 'install') {
    const r = await reportInstall({
      configPath,
      url: a,
      key: b,
      clock: systemAgentClock,
      requireHttps,
    });
    process.stdout.write(
      `${r.replaced ? 'updated' : 'added'} target ${r.id} (${r.installId}) in ${configPath}\n`,
    );
    return 0;
  }
  if (sub === 'update') {
    const t = reportUpdate({ configPath, id: a, key: b });
    process.stdout.write(`${targetLine(t)}\n`);
    return 0;
  }
  if (sub === 'remove') {
    reportRemove({ configPath, id: a });
    return 0;
  }
  for (const t of loadReportConfig(configPath)) process.stdout.write(`${targetLine(t)}\n`);
  return 0;
}

/** Runs one command and returns the process exit status. */
export async function runAgentCli(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case '--version':
      case '-v':
      case 'version':
        process.stdout.write(`${AGENT_VERSION}\n`);
        return 0;
      case 'push':
        return await push(rest);
      case 'report':
        return await report(rest);
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return 0;
      default:
        throw new UsageError(command ? `unknown command: ${command}` : 'missing command');
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`nodeagent: ${err.message}\n${USAGE}`);
      return 2;
    }
    if (err instanceof ReportConfigError) {
      process.stderr.write(`nodeagent: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`nodeagent: ${(err as Error).message}\n`);
    return 1;
  }
}
