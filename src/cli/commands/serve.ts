import { loadConfig } from '../../config/load.js';
import { createDeps } from '../../deps.js';
import { buildApp } from '../../app.js';

function banner(url: string, generated: string | undefined): string {
  const lines = [``, `  Dash is running at ${url}`];
  if (generated) {
    lines.push(
      ``,
      `  A first admin password was generated (shown only this once):`,
      ``,
      `      ${generated}`,
      ``,
      `  Change it with: dash set-password   (or set DASH_ADMIN_PASSWORD)`,
    );
  }
  return lines.join('\n') + '\n\n';
}

/** `dash serve`: start in the foreground; SIGTERM/SIGINT drain requests and close the store. */
export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const deps = await createDeps(config);
  const setup = await deps.adminPassword.ensure(config.adminPassword);
  const app = buildApp(deps);
  await app.listen({ host: config.listen.host, port: config.listen.port });
  deps.jobs.start();
  process.stdout.write(banner(config.publicUrl, setup.generated));
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
