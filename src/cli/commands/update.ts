import { loadConfig } from '../../config/load.js';
import { systemClock } from '../../platform/clock.js';
import { createLogger } from '../../platform/logger.js';
import { DashUpdater } from '../../updater/service.js';
import { feedFromConfig, RUNNING_ROOT } from '../../updater/create.js';
import { DASH_VERSION } from '../../version.js';
import { AGENT_VERSION } from '../../agent/version.js';

function updater(): DashUpdater {
  const config = loadConfig();
  const feed = feedFromConfig(config.home, config.update);
  return new DashUpdater({
    home: config.home,
    ...('feed' in feed ? { feed: feed.feed } : { feed: undefined, feedProblem: feed.problem }),
    runningRoot: RUNNING_ROOT,
    runningVersion: DASH_VERSION,
    nodeVersion: AGENT_VERSION,
    clock: systemClock,
    log: createLogger('warn'),
    restart: () => undefined,
  });
}

/**
 * `dash update recover`: after a crash or kill in the middle of a switch, keeps the new
 * release when `current` already names it complete, otherwise re-activates the previous one.
 * Works without the database, so it also runs when Dash itself cannot start. Run it as the
 * user owning DASH_HOME (root for a system install), then start the service again.
 */
export async function updateRecoverCommand(): Promise<void> {
  const outcome = await updater().recover();
  const text = {
    nothing: 'no interrupted update: the install is consistent',
    forward: `the interrupted update was finished: active release ${'release' in outcome ? outcome.release : ''}`,
    rolled_back: `the interrupted update was rolled back: active release ${'release' in outcome ? outcome.release : ''}`,
  }[outcome.kind];
  process.stdout.write(`${text}\n`);
}

/** `dash update status`: the last job as the admin API shows it, as JSON. */
export async function updateStatusCommand(): Promise<void> {
  process.stdout.write(`${JSON.stringify(updater().status(), null, 2)}\n`);
}
