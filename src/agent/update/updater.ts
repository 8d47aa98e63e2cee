import type { AgentClock } from '../clock.js';
import type { AgentLog } from '../log.js';
import type { TargetConfig } from '../push/target.js';
import { installRelease } from './install.js';
import type { ManagedLayout } from './layout.js';
import { decideManifest, type ManifestOffer } from './manifest.js';

/** A manifest whose download or install failed is not tried again for this long. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

export interface UpdaterOptions {
  /** Undefined outside a managed layout: every manifest is then ignored. */
  layout: ManagedLayout | undefined;
  currentVersion: string;
  requireHttps: boolean;
  clock: AgentClock;
  log: AgentLog;
  /** Called once the new release is in place; it stops this process so the manager starts it. */
  restart: (binary: string) => void;
}

/** Acts on the manifests one push cycle brought back (spec §4.4 rules 6–9). */
export class Updater {
  private busy = false;
  /** Set once a release is installed: the process is on its way out, nothing more to do. */
  private installed = false;
  private readonly failedUntil = new Map<string, number>();
  private lastNotice = '';

  constructor(private readonly opts: UpdaterOptions) {}

  /** Tells the operator once per distinct situation, not every three seconds. */
  private notice(msg: string): void {
    if (msg === this.lastNotice) return;
    this.lastNotice = msg;
    this.opts.log.warn(msg);
  }

  /** Returns true when an update was installed and a restart requested. */
  async consider(offers: readonly ManifestOffer<TargetConfig>[]): Promise<boolean> {
    if (offers.length === 0 || this.busy || this.installed) return false;
    const { layout, log } = this.opts;
    if (!layout) {
      log.debug('update manifest ignored: not running from a managed layout');
      return false;
    }
    const decision = decideManifest(offers, this.opts.currentVersion);
    if (decision.kind === 'none') return false;
    if (decision.kind === 'conflict') {
      this.notice('update skipped: targets offered different manifests');
      return false;
    }
    if (decision.kind === 'invalid') {
      this.notice(`update skipped: invalid manifest (${decision.reason})`);
      return false;
    }
    const { manifest, from } = decision;
    if (this.opts.requireHttps && new URL(manifest.url).protocol !== 'https:') {
      this.notice('update skipped: manifest URL is not HTTPS and --require-https is set');
      return false;
    }
    const key = `${manifest.version}|${manifest.sha256}|${manifest.size}`;
    const now = this.opts.clock.now();
    if ((this.failedUntil.get(key) ?? 0) > now) return false;
    this.busy = true;
    try {
      log.info(`installing update ${manifest.version}`);
      const binary = await installRelease(layout, manifest, from.key);
      log.info(`update ${manifest.version} installed; restarting`);
      this.installed = true;
      this.opts.restart(binary);
      return true;
    } catch (err) {
      this.failedUntil.set(key, now + RETRY_AFTER_FAILURE_MS);
      log.warn(`update ${manifest.version} failed: ${(err as Error).message}`);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
