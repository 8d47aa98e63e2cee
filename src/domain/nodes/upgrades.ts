import type semver from 'semver';
import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { NodesRepo } from '../../store/ports.js';
import type { DownloadGrants, Grant } from './download-grants.js';
import { AgentBuilds } from './agent-build.js';
import { distributionLibc } from './libc.js';
import { agentAssetPath } from './platform.js';
import type { UpdateManifest, UpdateOffers } from './update-offers.js';
import { isLegacyDownloader, isUpdateTarget, parseVersion, supportsAutoUpdate } from './version.js';

export interface AssetInfo {
  sha256: string;
  size: number;
}

/** The bundled agent builds under the deploy directory. */
export interface AgentAssets {
  /** Digest and size of a deploy asset; null when the file is missing. Throws on other errors. */
  describe(assetPath: string): Promise<AssetInfo | null>;
}

export interface NodeUpgradesDeps {
  nodes: NodesRepo;
  assets: AgentAssets;
  grants: DownloadGrants;
  clock: Clock;
  log: Logger;
  /** Version of the bundled agent build; 'unknown' when none is bundled. */
  bundledVersion: string;
  /** Root URL agents reach Dash at, without trailing slash. */
  publicUrl: string;
}

interface Pending {
  target: semver.SemVer;
  version: string;
  assetPath: string;
  /** The upgrade_token grant, only while the node reports a legacy version. */
  grant?: Grant;
}

/** A grant this close to expiry is replaced before it goes out in a manifest. */
const GRANT_RENEW_MS = 10 * 60 * 1000;

/**
 * Node upgrades requested by an admin (spec §3 "Pending node upgrade"). A pending upgrade is
 * offered in each metrics response until the node reports the target or a higher precedence;
 * it lives in memory only. Only a legacy node (one whose agent cannot send X-Node-Secret on the
 * download, see isLegacyDownloader) gets a URL with an upgrade_token grant (spec §2.7, §5); any
 * other node gets the plain URL and fetches it with its own secret, so no grant is minted for it.
 */
export class NodeUpgrades implements UpdateOffers {
  private readonly pending = new Map<number, Pending>();
  /** What each node's agent is, from its reports' User-Agent (metrics route). */
  readonly agents = new AgentBuilds();

  constructor(private readonly d: NodeUpgradesDeps) {}

  /** Registers a pending upgrade to the bundled version (checks in reference §5.9 order). */
  async request(nodeId: number): Promise<void> {
    const bundled = this.d.bundledVersion.trim();
    if (bundled === '' || bundled === 'unknown') throw new AppError('node_version_unavailable');
    const target = parseVersion(bundled);
    if (!target) throw new AppError('invalid_node_version');
    const node = await this.d.nodes.get(nodeId);
    if (!node) throw new AppError('not_found');
    if (!supportsAutoUpdate(node.agentVersion)) throw new AppError('node_upgrade_unsupported');
    const assetPath = this.safeAssetPath(nodeId, node.platform, agentAssetPath(node.os, node.arch));
    let info: AssetInfo | null;
    try {
      info = await this.d.assets.describe(assetPath);
    } catch (err) {
      throw new AppError('node_asset_error', undefined, { cause: err });
    }
    if (!info) throw new AppError('node_asset_missing', `agent build ${assetPath} is missing`);
    // Spec §4.6 rule 5: the grant is prepared now, so a legacy node's request fails with 503
    // node_upgrade_grant_error rather than queueing an upgrade the node cannot download.
    const grant = isLegacyDownloader(node.agentVersion) ? this.issueGrant(assetPath) : undefined;
    this.pending.set(nodeId, {
      target,
      version: bundled,
      assetPath,
      ...(grant ? { grant } : {}),
    });
  }

  /**
   * The build that can replace this node's agent, or 409 node_upgrade_unsafe when none can: an
   * upgrade switches `current` and restarts the service, so a build that cannot start there would
   * leave the node without an agent. A JS agent's service runs `node <file>`, which cannot start
   * an executable; a musl host needs the musl build; an unheard-of agent is not guessed at.
   * Dash's agent names its C library in the User-Agent; for any other agent (Ithiltir-node) it
   * follows from the distribution of the static report, and an unknown one is refused too.
   */
  private safeAssetPath(nodeId: number, platform: string, assetPath: string): string {
    const build = this.agents.get(nodeId);
    if (!build) {
      throw new AppError(
        'node_upgrade_unsafe',
        'the node has not reported since Dash started; upgrade it once it is online',
      );
    }
    if (build.dash && build.runtime === 'node') {
      throw new AppError(
        'node_upgrade_unsafe',
        'the node runs the Node.js build of the agent, which its service starts with node and ' +
          'which cannot be replaced by the standalone agent in place; run the install command ' +
          'on the node instead',
      );
    }
    if (!assetPath.startsWith('linux/')) return assetPath;
    const libc = build.libc ?? distributionLibc(platform);
    if (!libc) {
      throw new AppError(
        'node_upgrade_unsafe',
        `cannot tell whether the node's Linux (distribution "${platform.trim() || 'unknown'}") ` +
          'uses glibc or musl, so no agent build is known to start there; run the install ' +
          'command on the node instead',
      );
    }
    return libc === 'musl' ? `${assetPath}_musl` : assetPath;
  }

  /** Forgets a node's pending upgrade (the node was deleted). */
  forget(nodeId: number): void {
    this.pending.delete(nodeId);
    this.agents.forget(nodeId);
  }

  hasPending(nodeId: number): boolean {
    return this.pending.has(nodeId);
  }

  async manifestFor(nodeId: number, reportedVersion: string): Promise<UpdateManifest | null> {
    const p = this.pending.get(nodeId);
    if (!p) return null;
    if (!isUpdateTarget(p.target, reportedVersion)) {
      this.pending.delete(nodeId);
      return null;
    }
    try {
      const info = await this.d.assets.describe(p.assetPath);
      if (!info) {
        this.d.log.warn({ nodeId, asset: p.assetPath }, 'upgrade asset vanished; no manifest');
        return null;
      }
      const url = `${this.d.publicUrl}/deploy/${p.assetPath}`;
      // Decided per report: a node updated by hand past the legacy line stops getting a token.
      let query = '';
      if (isLegacyDownloader(reportedVersion)) {
        if (!p.grant || p.grant.expiresAt - this.d.clock.now() < GRANT_RENEW_MS) {
          p.grant = this.issueGrant(p.assetPath);
        }
        query = `?upgrade_token=${encodeURIComponent(p.grant.token)}`;
      }
      return {
        id: p.version,
        version: p.version,
        url: url + query,
        sha256: info.sha256,
        size: info.size,
      };
    } catch (err) {
      this.d.log.warn({ err, nodeId }, 'upgrade manifest could not be prepared');
      return null;
    }
  }

  private issueGrant(assetPath: string): Grant {
    try {
      return this.d.grants.issue(assetPath);
    } catch (err) {
      throw new AppError('node_upgrade_grant_error', undefined, { cause: err });
    }
  }
}
