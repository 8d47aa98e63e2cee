import { loadConfig } from '../../config/load.js';
import { createDeps } from '../../deps.js';
import { buildApp } from '../../app.js';
import { publishAgentAssets } from '../../deploy/agent-assets.js';
import { startLocalAgent } from '../local-agent.js';
import { dashCommand } from '../hints.js';
import {
  boundHeapGrowth,
  HEAP_GROWING_PERCENT,
  PG_HEAP_GROWING_PERCENT,
} from '../../platform/heap.js';
import type { FrontState } from '../../domain/front/front-state.js';
import { nameNodeThreads } from '../../platform/thread-names.js';
import { ingestTraceOn, traceJobs } from '../../workers/ingest-trace.js';

function banner(url: string, generated: string | undefined, setPassword: string): string {
  const lines = [``, `  Dash is running at ${url}`];
  if (generated) {
    lines.push(
      ``,
      `  A first admin password was generated (shown only this once):`,
      ``,
      `      ${generated}`,
      ``,
      `  Change it with: ${setPassword}   (or set DASH_ADMIN_PASSWORD)`,
    );
  }
  return lines.join('\n') + '\n\n';
}

/**
 * Renders the front views the start left unrendered, a slice per turn of the event loop, so
 * that requests are served meanwhile (a request needing a view renders it first itself).
 */
function renderFrontViews(front: FrontState): void {
  const slice = (): void => {
    if (front.renderPending(250) > 0) setImmediate(slice);
  };
  setImmediate(slice);
}

/** `dash serve`: start in the foreground; SIGTERM/SIGINT drain requests and close the store. */
export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  // Before any worker thread starts (the flag is process-wide).
  boundHeapGrowth(
    process.execArgv,
    process.env.NODE_OPTIONS ?? '',
    config.database.kind === 'postgres' ? PG_HEAP_GROWING_PERCENT : HEAP_GROWING_PERCENT,
  );
  // Before the worker threads start, so every thread still called `node` is one of Node's own.
  await nameNodeThreads();
  const deps = await createDeps(config);
  const setup = await deps.adminPassword.ensure(config.adminPassword);
  try {
    const assets = publishAgentAssets(config.home);
    if (assets.written.length > 0)
      deps.log.info({ assets: assets.written }, 'agent assets published');
    if (assets.rejected.length > 0)
      deps.log.warn({ rejected: assets.rejected }, 'agent builds not published');
    if (assets.missing.length > 0)
      deps.log.info({ missing: assets.missing }, 'agent builds not built here (make agents)');
  } catch (err) {
    // Dash still serves everything else; only /deploy agent downloads and upgrades are affected.
    deps.log.warn({ err }, 'agent assets not published');
  }
  const app = buildApp(deps);
  await app.listen({ host: config.listen.host, port: config.listen.port });
  if (ingestTraceOn) deps.scheduler.observe(traceJobs);
  deps.scheduler.start();
  renderFrontViews(deps.front);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.listen.port;
  const localAgent = config.localAgent
    ? await startLocalAgent(deps, { host: config.listen.host, port })
    : undefined;
  const setPassword = dashCommand(
    {
      cwd: process.cwd(),
      entry: process.argv[1],
      home: config.home,
      databaseUrl: process.env.DASH_DATABASE_URL,
    },
    'set-password',
  );
  process.stdout.write(banner(config.publicUrl, setup.generated, setPassword));
  deps.log.info({ listen: config.listen, database: config.database.kind }, 'dash started');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void (async () => {
      try {
        await localAgent?.stop();
        await app.close();
        await deps.shutdown();
        process.exitCode = 0;
      } catch (err) {
        deps.log.error({ err }, 'shutdown failed');
        process.exitCode = 1;
      }
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
