import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { NodeChanges, NodeRow, NodesRepo } from '../../store/ports.js';
import type { NodeEvent, NodeEvents } from './node-events.js';
import { parseNodePatch, bulkIds, type NodePatchInput, type NodePatch } from './patch.js';
import { NodeSecretIndex } from './secret-index.js';
import { Serial } from './serial.js';
import { tagsFromStore } from './tags.js';
import { isOutdated, supportsAutoUpdate } from './version.js';

/** Placeholder name and hostname of a node that has not reported yet. */
export const PLACEHOLDER_NAME = 'Untitled';
const SECRET_LENGTH = 16;
const SECRET_ATTEMPTS = 5;

export interface SecretSealer {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface NodesServiceDeps {
  nodes: NodesRepo;
  secrets: NodeSecretIndex;
  events: NodeEvents;
  sealer: SecretSealer;
  clock: Clock;
  log: Logger;
  /** Zone that dates an RFC 3339 anchor when the node has none of its own. */
  appTimezone: string;
  generateSecret: (length: number) => string;
}

/** A node as the admin list shows it (reference §5.2). */
export interface AdminNode {
  id: number;
  name: string;
  hostname: string;
  ip: string | null;
  isGuestVisible: boolean;
  trafficP95Enabled: boolean;
  trafficCycleMode: string;
  trafficBillingStartDay: number;
  trafficBillingAnchorDate: string;
  trafficBillingTimezone: string;
  trafficDirectionMode: string;
  secret: string;
  tags: string[];
  displayOrder: number;
  groupIds: number[];
  version: { version: string; isOutdated: boolean; supportsAutoUpdate: boolean };
}

function toChanges(patch: NodePatch, sealer: SecretSealer): NodeChanges {
  const c: NodeChanges = {};
  if (patch.name !== undefined) c.name = patch.name;
  if (patch.isGuestVisible !== undefined) c.isGuestVisible = patch.isGuestVisible;
  if (patch.trafficP95Enabled !== undefined) c.trafficP95Enabled = patch.trafficP95Enabled;
  if (patch.cycle) {
    c.trafficCycleMode = patch.cycle.mode;
    c.trafficBillingStartDay = patch.cycle.startDay;
    c.trafficBillingAnchorDate = patch.cycle.anchorDate;
    c.trafficBillingTimezone = patch.cycle.timezone;
  }
  if (patch.directionMode !== undefined) c.trafficDirectionMode = patch.directionMode;
  if (patch.displayOrder !== undefined) c.displayOrder = patch.displayOrder;
  if (patch.tags !== undefined) c.tagsJson = JSON.stringify(patch.tags);
  if (patch.secret !== undefined) {
    c.secret = { hash: NodeSecretIndex.hash(patch.secret), enc: sealer.encrypt(patch.secret) };
  }
  if (patch.groupIds !== undefined) c.groupIds = patch.groupIds;
  return c;
}

/**
 * Admin management of nodes (spec §2.3, §4.6). Every committed change reaches the secret index
 * before the call returns, so ingest sees a new, rotated or deleted secret at once, and is then
 * announced on NodeEvents for hot state.
 */
export class NodesService {
  private readonly serial = new Serial();

  constructor(private readonly d: NodesServiceDeps) {}

  async list(): Promise<AdminNode[]> {
    const rows = await this.d.nodes.list();
    return rows.map((row) => this.present(row));
  }

  /** Tags of a stored node, cleaned the way every read cleans them. */
  readTags(row: Pick<NodeRow, 'id' | 'tagsJson'>): string[] {
    return tagsFromStore(row.tagsJson, (message) =>
      this.d.log.warn({ nodeId: row.id }, `node tags: ${message}`),
    );
  }

  /** Creates a hidden placeholder node with a fresh secret; returns its id. */
  create(): Promise<number> {
    return this.serial.run(async () => {
      for (let attempt = 0; attempt < SECRET_ATTEMPTS; attempt++) {
        const secret = this.newSecret();
        const res = await this.d.nodes.create(
          {
            name: PLACEHOLDER_NAME,
            secretHash: NodeSecretIndex.hash(secret),
            secretEnc: this.d.sealer.encrypt(secret),
          },
          this.d.clock.now(),
        );
        if (res.ok) {
          this.d.secrets.set(res.id, secret);
          await this.emit({ type: 'created', nodeId: res.id });
          return res.id;
        }
      }
      throw new AppError('secret_collision_exhausted');
    });
  }

  async update(id: number, input: NodePatchInput): Promise<void> {
    const patch = parseNodePatch(input, this.d.appTimezone);
    const changes = toChanges(patch, this.d.sealer);
    await this.serial.run(async () => {
      const res = await this.d.nodes.update(id, changes, this.d.clock.now());
      if (res === 'not_found') throw new AppError('not_found');
      if (res === 'duplicate_secret') throw new AppError('duplicate_secret');
      if (res === 'unknown_group') {
        throw new AppError('invalid_group_ids', 'group_ids lists a group that does not exist');
      }
      if (patch.secret !== undefined) this.d.secrets.set(id, patch.secret);
      await this.emit({ type: 'updated', nodeId: id });
    });
  }

  async delete(id: number): Promise<void> {
    await this.serial.run(async () => {
      if (!(await this.d.nodes.softDelete(id, this.d.clock.now()))) {
        throw new AppError('not_found');
      }
      this.d.secrets.remove(id);
      await this.emit({ type: 'deleted', nodeId: id });
    });
  }

  /** Turns p95 on or off for every id, or for none when any id is not a live node. */
  async setTrafficP95(ids: readonly number[] | undefined, enabled: boolean | undefined) {
    if (enabled === undefined) throw new AppError('invalid_fields', 'enabled is required');
    const valid = bulkIds(ids);
    await this.serial.run(async () => {
      if (!(await this.d.nodes.setTrafficP95(valid, enabled, this.d.clock.now()))) {
        throw new AppError('not_found', 'a listed node does not exist');
      }
      for (const nodeId of valid) await this.emit({ type: 'updated', nodeId });
    });
  }

  /** The first id is shown first; the list must name every live node exactly once. */
  async setDisplayOrder(ids: readonly number[] | undefined): Promise<void> {
    const valid = bulkIds(ids);
    await this.serial.run(async () => {
      const res = await this.d.nodes.setDisplayOrder(valid, this.d.clock.now());
      if (res === 'missing') throw new AppError('not_found', 'a listed node does not exist');
      if (res === 'incomplete') {
        throw new AppError('invalid_ids', 'ids must list every node exactly once');
      }
      await this.emit({ type: 'reordered' });
    });
  }

  private newSecret(): string {
    try {
      return this.d.generateSecret(SECRET_LENGTH);
    } catch (err) {
      throw new AppError('secret_generation_failed', undefined, { cause: err });
    }
  }

  private emit(event: NodeEvent): Promise<void> {
    return this.d.events.emit(event, (err) =>
      this.d.log.error({ err, event }, 'node event listener failed'),
    );
  }

  private present(row: NodeRow): AdminNode {
    let secret = '';
    try {
      secret = this.d.sealer.decrypt(row.secretEnc);
    } catch {
      this.d.log.warn({ nodeId: row.id }, 'node secret cannot be decrypted with the data key');
    }
    return {
      id: row.id,
      name: row.name,
      hostname: row.hostname,
      ip: row.ip,
      isGuestVisible: row.isGuestVisible,
      trafficP95Enabled: row.trafficP95Enabled,
      trafficCycleMode: row.trafficCycleMode,
      trafficBillingStartDay: row.trafficBillingStartDay,
      trafficBillingAnchorDate: row.trafficBillingAnchorDate,
      trafficBillingTimezone: row.trafficBillingTimezone,
      trafficDirectionMode: row.trafficDirectionMode,
      secret,
      tags: this.readTags(row),
      displayOrder: row.displayOrder,
      groupIds: row.groupIds,
      version: {
        version: row.agentVersion,
        isOutdated: isOutdated(row.agentVersion),
        supportsAutoUpdate: supportsAutoUpdate(row.agentVersion),
      },
    };
  }
}
