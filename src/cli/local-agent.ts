import type { AppDeps } from '../deps.js';
import { startAgent, type AgentHandle } from '../agent/run.js';

const NODE_KEY = 'local_agent.node_id';
/** First report 0.5 s after start (not a whole interval): the first-run page shows this host at once. */
const FIRST_REPORT_MS = 500;

function loopbackBase(host: string, port: number): string {
  const h = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/**
 * The node the local agent reports as: created on the first run (shown to guests, so a new
 * user's dashboard has this host on it at once) and reused afterwards. If an admin deleted it,
 * a new one is created.
 */
async function localNode(deps: AppDeps): Promise<{ id: number; secret: string }> {
  const stored = await deps.store.settings.get(NODE_KEY);
  const nodes = await deps.nodes.list();
  const existing =
    stored === undefined ? undefined : nodes.find((n) => n.id === (JSON.parse(stored) as number));
  if (existing) return { id: existing.id, secret: existing.secret };
  const id = await deps.nodes.create();
  await deps.nodes.update(id, { isGuestVisible: true });
  await deps.store.settings.setMany([[NODE_KEY, JSON.stringify(id)]], deps.clock.now());
  const created = (await deps.nodes.list()).find((n) => n.id === id);
  if (!created) throw new Error('local agent node vanished right after creation');
  return { id, secret: created.secret };
}

/** Starts an in-process agent reporting this host into this Dash (`local_agent: true`). */
export async function startLocalAgent(
  deps: AppDeps,
  listen: { host: string; port: number },
): Promise<AgentHandle> {
  const node = await localNode(deps);
  const log = deps.log.child({ component: 'local-agent', nodeId: node.id });
  const handle = startAgent({
    firstReportMs: FIRST_REPORT_MS,
    targets: [
      { url: `${loopbackBase(listen.host, listen.port)}/api/node/metrics`, key: node.secret },
    ],
    log: {
      debug: (m) => log.debug(m),
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
    },
  });
  log.info('local agent started');
  return handle;
}
