import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { GroupRow, GroupsRepo } from '../../store/ports.js';
import { DEFAULT_GROUP_ID, DEFAULT_GROUP_NAME, groupName, groupRemark } from './rules.js';

export interface GroupPatchInput {
  name?: string | undefined;
  remark?: string | undefined;
}

/** Admin management of node groups (spec §2.2, §4.5). */
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepo,
    private readonly clock: Clock,
  ) {}

  /** Re-activates or creates the `default` group; run once at start. */
  ensureDefault(): Promise<number> {
    return this.groups.ensureNamed(DEFAULT_GROUP_NAME, this.clock.now());
  }

  /**
   * Groups for the dashboard filter: admins get every live group with all live members; guests
   * only see guest-visible members, and groups left empty are omitted.
   */
  async frontGroups(
    admin: boolean,
  ): Promise<Array<{ id: number; name: string; nodeIds: number[] }>> {
    const groups = await this.groups.memberships();
    return groups
      .map((g) => ({
        id: g.id,
        name: g.name,
        nodeIds: g.nodes.filter((n) => admin || n.guestVisible).map((n) => n.id),
      }))
      .filter((g) => admin || g.nodeIds.length > 0);
  }

  list(): Promise<GroupRow[]> {
    return this.groups.list();
  }

  async create(input: GroupPatchInput): Promise<number> {
    const name = groupName(input.name);
    const remark = groupRemark(input.remark);
    return this.groups.create(name, remark, this.clock.now());
  }

  /** PATCH answers every invalid value with invalid_fields, as the reference does. */
  async update(id: number, input: GroupPatchInput): Promise<void> {
    const changes: { name?: string; remark?: string } = {};
    if (input.name !== undefined) changes.name = groupName(input.name, 'invalid_fields');
    if (input.remark !== undefined) changes.remark = groupRemark(input.remark, 'invalid_fields');
    if (changes.name === undefined && changes.remark === undefined) throw new AppError('no_fields');
    if (!(await this.groups.update(id, changes, this.clock.now()))) throw new AppError('not_found');
  }

  async delete(id: number): Promise<void> {
    if (id === DEFAULT_GROUP_ID) throw new AppError('default_group_not_deletable');
    if (!(await this.groups.softDelete(id, this.clock.now()))) throw new AppError('not_found');
  }
}
