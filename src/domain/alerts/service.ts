import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type {
  AlertEventRow,
  AlertNodeRef,
  AlertRuleRow,
  AlertsRepo,
  AlertTransitionWrite,
} from '../../store/ports.js';
import {
  DEFAULT_NOTIFY_SETTINGS,
  NotifyPolicy,
  type DueNotification,
  type NotifySettings,
} from './notify-policy.js';
import { MAX_REPEATS } from './rule-input.js';
import { parseSilence, type Silence, type SilenceInput, type SilenceScope } from './silence.js';
import type { AcceptedReport } from '../ingest/report-events.js';
import { BUILTIN_RULES, builtinRule } from './builtin-rules.js';
import { compile } from './compile.js';
import { AlertEvaluator, type AlertAction, type CloseReason } from './evaluator.js';
import type { AlertRule } from './rule.js';
import {
  checkRule,
  CONDITION_FIELDS,
  newRuleFields,
  parseRuleFields,
  type RuleFields,
  type RuleInput,
} from './rule-input.js';

export interface AlertSettings extends NotifySettings {
  channelIds: number[];
  createdAt: number;
  updatedAt: number;
}

/** PUT settings: `enabled` and `channelIds` are required, the rest keep their value if absent. */
export interface AlertSettingsInput {
  enabled: boolean;
  channelIds: readonly number[];
  repeatMax?: number;
  flapThreshold?: number;
  flapWindowMin?: number;
}

export const MAX_FLAP_THRESHOLD = 100;
export const MAX_FLAP_WINDOW_MIN = 1440;

/** A silence as the admin API shows it. */
export interface SilenceView extends Silence {
  targetName: string | null;
  active: boolean;
}

export interface AlertsServiceOptions {
  repo: AlertsRepo;
  clock: Clock;
  /** The node offline threshold (config `nodeOfflineThresholdMs`). */
  staleAfterMs: number;
  /** No event opens this long after start (config alerts_startup_grace); default a minute. */
  startupGraceMs?: number;
  /** Whether every id names a stored notification channel (the channels feature supplies it). */
  channelsExist?: (ids: readonly number[]) => Promise<boolean>;
  onError: (err: unknown) => void;
  /**
   * Several instances: only the one leading alert evaluation runs the state machine and writes
   * transitions (it calls `start` again when it takes over); the others only serve the API.
   */
  evaluates?: () => boolean;
  /** Told after the admin API changed rules, mounts, silences, settings or acknowledgements. */
  onChanged?: () => void;
}

export const MAX_SETTINGS_CHANNELS = 100;

/**
 * Alert rules, mounts, settings and events (spec §4.8, reference §8.1–§8.7), and the
 * evaluation runtime: accepted reports and a clock tick feed the in-memory state machine, and
 * only its transitions reach the store, in the order they happened.
 */
export class AlertsService {
  private evaluator: AlertEvaluator;
  private rulesById = new Map<number, AlertRule>();
  private readonly policy = new NotifyPolicy();
  private nodeGroups = new Map<number, readonly number[]>();
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly opts: AlertsServiceOptions) {
    this.evaluator = new AlertEvaluator({
      startedAt: opts.clock.now(),
      staleAfterMs: opts.staleAfterMs,
      startupGraceMs: opts.startupGraceMs,
    });
  }

  /**
   * Restores open events (so a restart neither closes nor duplicates them), loads rules and
   * mounts, and learns each node's last receive time. Run once before reports flow.
   */
  async start(known: Iterable<{ nodeId: number; receivedAt: number }>): Promise<void> {
    const now = this.opts.clock.now();
    this.evaluator = new AlertEvaluator({
      startedAt: now,
      staleAfterMs: this.opts.staleAfterMs,
      startupGraceMs: this.opts.startupGraceMs,
    });
    if (!(await this.opts.repo.settings()))
      await this.opts.repo.putSettings({ ...DEFAULT_NOTIFY_SETTINGS, channelIds: [] }, now);
    this.policy.settings = notifySettings(await this.settings());
    this.policy.groupsOf = (nodeId) => this.nodeGroups.get(nodeId) ?? [];
    await this.loadSilences();
    const open = await this.opts.repo.openEvents();
    this.evaluator.restore(open);
    this.policy.restore(open);
    for (const k of known) this.evaluator.seenNode(k.nodeId, k.receivedAt);
    await this.reload('rule_deleted');
  }

  /** The accepted-report hook: synchronous state update, a store write only on a transition. */
  onReport(event: AcceptedReport): void {
    if (this.opts.evaluates?.() === false) return;
    const actions = this.evaluator.observe(
      event.nodeId,
      event.receivedAt,
      event.readings,
      this.opts.clock.now(),
    );
    if (actions.length > 0) this.persist(actions);
  }

  /** The clock-driven check: offline nodes, then repeats and openings a silence held back. */
  async tick(now: number): Promise<void> {
    if (this.opts.evaluates?.() === false) return;
    if (this.policy.silences.some((s) => s.scope === 'group' && s.endsAt > now))
      await this.loadGroups();
    this.persist(this.evaluator.tick(now));
    this.persist(this.policy.due(now, this.rulesById).map(dueWrite));
    await this.flush();
  }

  async forgetNode(nodeId: number): Promise<void> {
    this.persist(this.evaluator.forgetNode(nodeId, this.opts.clock.now()));
    this.policy.forgetNode(nodeId);
    await this.flush();
  }

  /**
   * Several instances: follows what another instance's admin API stored (rules, mounts,
   * silences, settings, acknowledgements), keeping the running state machine.
   */
  async followStored(): Promise<void> {
    this.policy.settings = notifySettings(await this.settings());
    await this.loadSilences();
    for (const e of await this.opts.repo.openEvents())
      if (e.ackedAt !== null) this.policy.ack(e.nodeId, e.ruleId);
    await this.reload('rule_deleted');
  }

  // ---- acknowledgement and silences ----------------------------------------------------------

  /** Acknowledges an open event: it stays open and its repeat notifications stop. */
  async ack(eventId: number): Promise<void> {
    await this.flush();
    const row = await this.opts.repo.ackEvent(eventId, this.opts.clock.now());
    if (!row) throw new AppError('not_found');
    if (row.status !== 'open') throw new AppError('alert_event_closed');
    this.policy.ack(row.nodeId, row.ruleId);
    this.opts.onChanged?.();
  }

  async silences(): Promise<SilenceView[]> {
    const now = this.opts.clock.now();
    const [nodes, groups] = await Promise.all([this.opts.repo.nodes(), this.opts.repo.groups()]);
    const names = {
      node: new Map(nodes.map((n) => [n.id, n.name])),
      group: new Map(groups.map((g) => [g.id, g.name])),
      rule: new Map([...this.rulesById.values()].map((r) => [r.id, r.name])),
    };
    return (await this.opts.repo.silences()).map((s) => ({
      ...s,
      targetName: names[s.scope].get(s.targetId) ?? null,
      active: s.endsAt > now,
    }));
  }

  async createSilence(input: SilenceInput): Promise<number> {
    const now = this.opts.clock.now();
    const [nodes, groups] = await Promise.all([this.opts.repo.nodes(), this.opts.repo.groups()]);
    const live: Record<SilenceScope, Set<number>> = {
      node: new Set(nodes.map((n) => n.id)),
      group: new Set(groups.map((g) => g.id)),
      rule: new Set(this.rulesById.keys()),
    };
    const write = parseSilence(input, now, (scope, id) => live[scope].has(id));
    const id = await this.opts.repo.createSilence(write, now);
    await this.loadSilences();
    this.opts.onChanged?.();
    return id;
  }

  async deleteSilence(id: number): Promise<void> {
    if (!(await this.opts.repo.deleteSilence(id))) throw new AppError('not_found');
    await this.loadSilences();
    this.opts.onChanged?.();
  }

  /** Resolves once every transition so far is committed. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Node/rule pairs with an open event, for the dashboard badge. */
  firing(): Array<{ nodeId: number; ruleId: number }> {
    return this.evaluator.firing();
  }

  // ---- rules ---------------------------------------------------------------------------------

  rules(): Promise<AlertRuleRow[]> {
    return this.opts.repo.rules();
  }

  async createRule(input: RuleInput): Promise<void> {
    const fields = newRuleFields(input);
    await this.opts.repo.createRule(fields, this.opts.clock.now());
    await this.reload('rule_deleted');
    this.opts.onChanged?.();
  }

  async updateRule(id: number, input: RuleInput): Promise<void> {
    if (builtinRule(id)) throw new AppError('builtin_rule_readonly');
    const changes = parseRuleFields(input);
    if (Object.keys(changes).length === 0) throw new AppError('no_fields');
    const current = (await this.opts.repo.rules()).find((r) => r.id === id);
    if (!current) throw new AppError('not_found');
    const before = compile(current);
    const merged: RuleFields = checkRule({
      ...(before ?? (current as unknown as RuleFields)),
      ...changes,
    });
    const newGeneration = !before || CONDITION_FIELDS.some((k) => merged[k] !== before[k]);
    await this.opts.repo.updateRule(id, merged, newGeneration, this.opts.clock.now());
    await this.reload('rule_deleted');
    this.opts.onChanged?.();
  }

  async deleteRule(id: number): Promise<void> {
    if (builtinRule(id)) throw new AppError('builtin_rule_readonly');
    if (!(await this.opts.repo.deleteRule(id, this.opts.clock.now())))
      throw new AppError('not_found');
    await this.reload('rule_deleted');
    this.opts.onChanged?.();
  }

  // ---- mounts --------------------------------------------------------------------------------

  async mounts(): Promise<{
    rules: Array<{
      id: number;
      name: string;
      metric: string;
      builtin: boolean;
      enabled: boolean;
      defaultMounted: boolean;
    }>;
    nodes: Array<AlertNodeRef & { mounts: Array<{ ruleId: number; mounted: boolean }> }>;
  }> {
    const userRules = await this.opts.repo.rules();
    const rules = [
      ...BUILTIN_RULES.map((r) => ({
        id: r.id,
        name: r.name,
        metric: r.metric,
        builtin: true,
        enabled: true,
        defaultMounted: true,
      })),
      ...userRules.map((r) => ({
        id: r.id,
        name: r.name,
        metric: r.metric,
        builtin: false,
        enabled: r.enabled,
        defaultMounted: false,
      })),
    ];
    const explicit = new Map(
      (await this.opts.repo.mounts()).map((m) => [`${m.ruleId}:${m.nodeId}`, m.mounted]),
    );
    const nodes = (await this.opts.repo.nodes()).map((n) => ({
      ...n,
      mounts: rules.map((r) => ({
        ruleId: r.id,
        mounted: explicit.get(`${r.id}:${n.id}`) ?? r.defaultMounted,
      })),
    }));
    return { rules, nodes };
  }

  async setMounts(
    ruleIds: readonly number[],
    nodeIds: readonly number[],
    mounted: boolean,
  ): Promise<void> {
    const rules = [...new Set(ruleIds)];
    const nodes = [...new Set(nodeIds)];
    if (rules.length === 0 || nodes.length === 0) throw new AppError('invalid_fields');
    if (rules.some((id) => !Number.isSafeInteger(id) || id === 0))
      throw new AppError('invalid_fields');
    if (nodes.some((id) => !Number.isSafeInteger(id) || id <= 0))
      throw new AppError('invalid_fields');
    const userIds = new Set((await this.opts.repo.rules()).map((r) => r.id));
    if (rules.some((id) => (id < 0 ? !builtinRule(id) : !userIds.has(id))))
      throw new AppError('invalid_fields', 'unknown rule id');
    const live = new Set((await this.opts.repo.nodes()).map((n) => n.id));
    if (nodes.some((id) => !live.has(id)))
      throw new AppError('invalid_fields', 'unknown server id');
    await this.opts.repo.setMounts(rules, nodes, mounted);
    await this.reload('rule_deleted');
    this.opts.onChanged?.();
  }

  // ---- settings ------------------------------------------------------------------------------

  async settings(): Promise<AlertSettings> {
    const s = await this.opts.repo.settings();
    if (s) return s;
    const now = this.opts.clock.now();
    return { ...DEFAULT_NOTIFY_SETTINGS, channelIds: [], createdAt: now, updatedAt: now };
  }

  async putSettings(input: AlertSettingsInput): Promise<void> {
    const { enabled, channelIds } = input;
    const current = await this.settings();
    const int = (v: number | undefined, keep: number, min: number, max: number): number => {
      if (v === undefined) return keep;
      if (!Number.isInteger(v) || v < min || v > max) throw new AppError('invalid_fields');
      return v;
    };
    const repeatMax = int(input.repeatMax, current.repeatMax, 0, MAX_REPEATS);
    const flapThreshold = int(input.flapThreshold, current.flapThreshold, 0, MAX_FLAP_THRESHOLD);
    if (flapThreshold === 1) throw new AppError('invalid_fields', 'flap_threshold is 0 or 2-100');
    const flapWindowMin = int(input.flapWindowMin, current.flapWindowMin, 1, MAX_FLAP_WINDOW_MIN);
    if (channelIds.length > MAX_SETTINGS_CHANNELS) throw new AppError('invalid_fields');
    if (channelIds.some((id) => !Number.isSafeInteger(id) || id <= 0))
      throw new AppError('invalid_fields');
    if (new Set(channelIds).size !== channelIds.length)
      throw new AppError('invalid_fields', 'duplicate channel id');
    const exist = this.opts.channelsExist ?? (async (ids) => ids.length === 0);
    if (!(await exist(channelIds))) throw new AppError('invalid_fields', 'unknown channel id');
    const write = { enabled, channelIds: [...channelIds], repeatMax, flapThreshold, flapWindowMin };
    await this.opts.repo.putSettings(write, this.opts.clock.now());
    this.policy.settings = notifySettings(write);
    this.opts.onChanged?.();
  }

  // ---- events --------------------------------------------------------------------------------

  events: AlertsRepo['events'] = (q) => this.opts.repo.events(q);

  /** Open alerts per node: count, latest trigger, latest metric/rule and metrics latest-first. */
  async summary(): Promise<
    Array<{
      serverId: number;
      openCount: number;
      lastTriggerAt: number;
      metric: string;
      ruleName: string;
      metrics: string[];
    }>
  > {
    const byNode = new Map<number, AlertEventRow[]>();
    for (const e of await this.opts.repo.openEventRows()) {
      const list = byNode.get(e.nodeId) ?? [];
      list.push(e);
      byNode.set(e.nodeId, list);
    }
    return [...byNode.entries()].map(([serverId, list]) => ({
      serverId,
      openCount: list.length,
      lastTriggerAt: list[0]!.lastTriggerAt,
      metric: list[0]!.metric,
      ruleName: list[0]!.ruleName,
      metrics: [...new Set(list.map((e) => e.metric))],
    }));
  }

  async servers(): Promise<Array<{ id: number; name: string }>> {
    return (await this.opts.repo.nodes()).map((n) => ({ id: n.id, name: n.name }));
  }

  // ---- runtime -------------------------------------------------------------------------------

  /** Re-reads rules and mounts; pairs that lost their rule or mount close. */
  private async reload(missing: CloseReason): Promise<void> {
    const rows = await this.opts.repo.rules();
    const invalid = new Set<number>();
    const rules: AlertRule[] = [...BUILTIN_RULES];
    for (const row of rows) {
      const rule = compile(row);
      if (rule) rules.push(rule);
      else invalid.add(row.id);
    }
    this.rulesById = new Map(rules.map((r) => [r.id, r]));
    const mounts = await this.opts.repo.mounts();
    const actions = this.evaluator.configure(rules, mounts, this.opts.clock.now(), (id) =>
      invalid.has(id) ? 'rule_invalid' : missing,
    );
    this.persist(actions);
    await this.flush();
  }

  private async loadSilences(): Promise<void> {
    const now = this.opts.clock.now();
    this.policy.silences = (await this.opts.repo.silences()).filter((s) => s.endsAt > now);
    await this.loadGroups();
  }

  private async loadGroups(): Promise<void> {
    this.nodeGroups = new Map((await this.opts.repo.nodes()).map((n) => [n.id, n.groupIds]));
  }

  private persist(actions: ReadonlyArray<AlertAction | AlertTransitionWrite>): void {
    if (actions.length === 0 || this.opts.evaluates?.() === false) return;
    const writes = actions.map((a) =>
      a.kind === 'repeat' || a.kind === 'notify_open' ? a : this.toWrite(a as AlertAction),
    );
    this.writes = this.writes
      .then(() => this.opts.repo.applyTransitions(writes))
      .catch(this.opts.onError);
  }

  private toWrite(a: AlertAction): AlertTransitionWrite {
    if (a.kind === 'open') {
      const d = this.policy.onOpen(a.nodeId, a.rule.id, a.at);
      return {
        kind: 'open',
        nodeId: a.nodeId,
        ruleId: a.rule.id,
        ruleGeneration: a.rule.generation,
        ruleName: a.rule.name,
        metric: a.rule.metric,
        at: a.at,
        value: a.value,
        threshold: a.threshold,
        title: a.rule.name,
        message: a.why,
        why: a.detail,
        ...d,
      };
    }
    if (a.kind === 'refresh') return a;
    return {
      kind: 'close',
      nodeId: a.nodeId,
      ruleId: a.ruleId,
      at: a.at,
      reason: a.reason,
      ...(a.value === undefined ? {} : { value: a.value }),
      ...this.policy.onClose(a.nodeId, a.ruleId, a.at, a.reason),
    };
  }

  /** The compiled rule by id (built-ins included). */
  rule(id: number): AlertRule | undefined {
    return this.rulesById.get(id);
  }
}

function notifySettings(s: NotifySettings): NotifySettings {
  return {
    enabled: s.enabled,
    repeatMax: s.repeatMax,
    flapThreshold: s.flapThreshold,
    flapWindowMin: s.flapWindowMin,
  };
}

const dueWrite = (d: DueNotification): AlertTransitionWrite => d;
