import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import { rfc3339 } from '../../platform/time-format.js';
import type { TrafficAdjustment } from '../../protocol/traffic.js';
import type { TrafficAdjustmentsRepo } from '../../store/ports.js';
import { parseAdjustmentInput, presentAdjustment, rawIn } from './calibration.js';
import { cycleAt } from './cycle-bounds.js';
import { nodeCycle, type TrafficReads } from './reads.js';

/**
 * Recording and revoking bills (calibration). A record names the interface, the cycle by its
 * start, the direction the bill counts and the billed bytes; Dash keeps its own raw figure of
 * the moment beside it. Records are never deleted: revoking, or recording the same cycle
 * again, only takes a record out of force.
 */
export class TrafficAdjustments {
  constructor(
    private readonly d: {
      repo: TrafficAdjustmentsRepo;
      reads: TrafficReads;
      clock: Clock;
      appZone: string;
    },
  ) {}

  async list(nodeId: number, iface?: string): Promise<{ items: TrafficAdjustment[] }> {
    const node = await this.d.reads.node(nodeId, true);
    const cycle = nodeCycle(node, this.d.appZone);
    const rows = await this.d.repo.list(node.id, iface);
    return { items: rows.map((r) => presentAdjustment(r, cycle)) };
  }

  async create(nodeId: number, body: unknown): Promise<TrafficAdjustment> {
    const node = await this.d.reads.node(nodeId, true);
    const input = parseAdjustmentInput(body);
    const scope = await this.d.reads.scope(node, input.iface);
    const w = cycleAt(scope.ctx.cycle, input.cycleStart);
    if (w.start !== input.cycleStart) {
      throw new AppError(
        'invalid_traffic_adjustment_cycle',
        `cycle_start is not the start of one of this node's billing cycles (the cycle around it starts at ${rfc3339(w.start)})`,
      );
    }
    if (w.end > scope.now) throw new AppError('traffic_adjustment_cycle_open');
    const { raw, hasData } = await scope.cycle(w);
    const rawBytes = hasData ? rawIn(input.direction, raw) : 0;
    if (rawBytes <= 0) throw new AppError('traffic_adjustment_no_data');
    const row = await this.d.repo.create({
      nodeId: node.id,
      iface: input.iface,
      cycleStart: w.start,
      cycleEnd: w.end,
      direction: input.direction,
      billedBytes: input.billedBytes,
      rawBytes,
      note: input.note,
      createdAt: scope.now,
    });
    return presentAdjustment(row, scope.ctx.cycle);
  }

  async revoke(nodeId: number, id: number): Promise<TrafficAdjustment> {
    const node = await this.d.reads.node(nodeId, true);
    const row = await this.d.repo.get(node.id, id);
    if (!row) throw new AppError('not_found');
    if (row.revokedAt !== null) throw new AppError('traffic_adjustment_revoked');
    const done = await this.d.repo.revoke(node.id, id, this.d.clock.now());
    if (!done) throw new AppError('traffic_adjustment_revoked');
    return presentAdjustment(done, nodeCycle(node, this.d.appZone));
  }
}
