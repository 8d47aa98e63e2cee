import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { StaticReport } from '../../protocol/static-report.js';
import type { NodeStaticRepo } from '../../store/ports.js';
import type { FrontState } from '../front/front-state.js';
import { mergeStaticInfo, parseStaticInfo } from '../nodes/static-info.js';
import { validateStaticReport } from './validate-static.js';

export interface StaticIngestDeps {
  clock: Clock;
  repo: NodeStaticRepo;
  front: FrontState;
  /** Told after a node's static facts changed (several instances: the others re-read it). */
  onStored?: (nodeId: number) => void;
}

/**
 * POST /api/node/static: records the node's host facts (reference §2.2). The static version is
 * the node's reported version; the hostname names the node while it still has its placeholder.
 */
export class StaticIngest {
  constructor(private readonly d: StaticIngestDeps) {}

  async accept(nodeId: number, body: StaticReport, ip: string | null): Promise<void> {
    const v = validateStaticReport(body);
    const stored = await this.store(() => this.d.repo.staticJson(nodeId));
    if (stored === undefined) throw new AppError('unauthorized', 'the node no longer exists');
    const info = mergeStaticInfo(parseStaticInfo(stored), body, v.reportedAt);
    const saved = await this.store(() =>
      this.d.repo.saveStatic(
        nodeId,
        {
          hostname: v.system.hostname,
          os: v.system.os,
          platform: v.system.platform,
          platformVersion: v.system.platformVersion,
          kernelVersion: v.system.kernelVersion,
          arch: v.system.arch,
          agentVersion: v.version,
          intervalSec: v.intervalSec,
          staticJson: JSON.stringify(info),
          ip,
        },
        this.d.clock.now(),
      ),
    );
    if (!saved) throw new AppError('unauthorized', 'the node no longer exists');
    await this.d.front.refreshNode(nodeId);
    this.d.onStored?.(nodeId);
  }

  private async store<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new AppError('service_unavailable', 'the static report could not be stored', {
        cause: err,
      });
    }
  }
}
