import { rfc3339 } from '../../platform/time-format.js';
import type { AlertReadings } from './readings.js';
import { compare, effectiveClearThreshold, effectiveThreshold, type AlertRule } from './rule.js';
import type { AlertWhy } from '../../store/ports-alerts.js';

/** Values kept per pending window for the "why it fired" detail (the latest ones). */
export const WHY_MAX_VALUES = 10;

/** "Why it fired", stored with the event: the window and the values that crossed the threshold. */
export type WhyDetail = AlertWhy;

/** No event opens during the first minute after start (reference §8.4): nodes reconnect first. */
export const STARTUP_GRACE_MS = 60_000;
/** A firing event's value and last trigger time are written at most this often. */
export const REFRESH_EVERY_MS = 60_000;

export type CloseReason =
  | 'condition_cleared'
  | 'rule_unmounted'
  | 'rule_invalid'
  | 'rule_disabled'
  | 'rule_changed'
  | 'rule_deleted'
  | 'node_deleted';

export type AlertAction =
  | {
      kind: 'open';
      nodeId: number;
      rule: AlertRule;
      at: number;
      value: number;
      threshold: number;
      /** "Why it fired": the value, the comparison and the window that crossed it. */
      why: string;
      detail: WhyDetail;
    }
  | { kind: 'refresh'; nodeId: number; ruleId: number; at: number; value: number }
  | {
      kind: 'close';
      nodeId: number;
      ruleId: number;
      at: number;
      reason: CloseReason;
      value?: number;
    };

/** An open event as stored, to resume firing after a restart. */
export interface OpenAlertKey {
  nodeId: number;
  ruleId: number;
  generation: number;
  lastTriggerAt: number;
}

interface Window {
  values: number[];
  samples: number;
  min: number;
  max: number;
}

type RuleState =
  | { phase: 'pending'; since: number; window: Window }
  | { phase: 'firing'; generation: number; refreshedAt: number }
  | { phase: 'cooldown'; until: number };

export interface EvaluatorOptions {
  /** When the alert service started (epoch ms). */
  startedAt: number;
  /** A node is offline once now − received_at exceeds this (config node offline threshold). */
  staleAfterMs: number;
  /** How long after start no event opens (config alerts_startup_grace); default a minute. */
  startupGraceMs?: number;
}

/**
 * The alert state machine of every (node, rule) pair, in memory and synchronous: it returns
 * the transitions to persist and never touches storage. Per pair: nothing → pending → firing
 * (event open) → cooldown or nothing; an event opens once and closes once.
 */
export class AlertEvaluator {
  private rules = new Map<number, AlertRule>();
  /** Explicit mount records `rule:node`; without one, built-ins are mounted and user rules not. */
  private mounts = new Map<string, boolean>();
  private readonly lastReceived = new Map<number, number>();
  private readonly cores = new Map<number, number>();
  private readonly states = new Map<number, Map<number, RuleState>>();

  constructor(private readonly opts: EvaluatorOptions) {}

  /** Puts events that were open before a restart back into the firing phase. */
  restore(open: readonly OpenAlertKey[]): void {
    for (const e of open)
      this.nodeStates(e.nodeId).set(e.ruleId, {
        phase: 'firing',
        generation: e.generation,
        refreshedAt: e.lastTriggerAt,
      });
  }

  /** Latest receive time per node (from the front state at start). */
  seenNode(nodeId: number, receivedAt: number): void {
    const last = this.lastReceived.get(nodeId);
    if (last === undefined || receivedAt > last) this.lastReceived.set(nodeId, receivedAt);
  }

  /**
   * Replaces the rule set and mounts; firing pairs whose rule is gone, disabled, changed or
   * unmounted are closed, their other phases dropped.
   */
  configure(
    rules: readonly AlertRule[],
    mounts: ReadonlyArray<{ ruleId: number; nodeId: number; mounted: boolean }>,
    now: number,
    missingReason: (ruleId: number) => CloseReason = () => 'rule_deleted',
  ): AlertAction[] {
    this.rules = new Map(rules.map((r) => [r.id, r]));
    this.mounts = new Map(mounts.map((m) => [`${m.ruleId}:${m.nodeId}`, m.mounted]));
    const out: AlertAction[] = [];
    for (const [nodeId, states] of this.states) {
      for (const [ruleId, state] of states) {
        const rule = this.rules.get(ruleId);
        let reason: CloseReason | undefined;
        if (!rule) reason = missingReason(ruleId);
        else if (!rule.enabled) reason = 'rule_disabled';
        else if (state.phase === 'firing' && state.generation !== rule.generation)
          reason = 'rule_changed';
        else if (!this.isMounted(ruleId, nodeId)) reason = 'rule_unmounted';
        if (reason === undefined) {
          // an edited condition restarts its window: time before the edit never counts
          if (state.phase === 'pending' && rule && state.since < rule.generationAt)
            states.delete(ruleId);
          continue;
        }
        if (state.phase === 'firing') out.push({ kind: 'close', nodeId, ruleId, at: now, reason });
        states.delete(ruleId);
      }
    }
    return out;
  }

  isMounted(ruleId: number, nodeId: number): boolean {
    return this.mounts.get(`${ruleId}:${nodeId}`) ?? ruleId < 0;
  }

  /** Pairs with an open event, for the dashboard badge and tests. */
  firing(): Array<{ nodeId: number; ruleId: number }> {
    const out: Array<{ nodeId: number; ruleId: number }> = [];
    for (const [nodeId, states] of this.states)
      for (const [ruleId, s] of states) if (s.phase === 'firing') out.push({ nodeId, ruleId });
    return out;
  }

  /**
   * A report that became current. Reports older than the newest one seen for the node are
   * ignored, so a late report never overrides a newer evaluation.
   */
  observe(
    nodeId: number,
    receivedAt: number,
    readings: AlertReadings | undefined,
    now: number,
  ): AlertAction[] {
    const last = this.lastReceived.get(nodeId);
    if (last !== undefined && receivedAt < last) return [];
    this.lastReceived.set(nodeId, receivedAt);
    const out: AlertAction[] = [];
    if (readings) this.cores.set(nodeId, readings.cores);
    for (const rule of this.rules.values()) {
      if (!rule.enabled || !this.isMounted(rule.id, nodeId)) continue;
      const value =
        rule.metric === 'node.offline'
          ? this.offlineValue(nodeId, now)
          : readings?.values[rule.metric];
      this.step(nodeId, rule, value, receivedAt, now, out);
    }
    return out;
  }

  /**
   * The clock-driven check: `node.offline` for every node with a snapshot; while a node is
   * offline its other rules keep firing but lose their pending phase.
   */
  tick(now: number): AlertAction[] {
    const out: AlertAction[] = [];
    for (const nodeId of this.lastReceived.keys()) {
      const offline = this.offlineValue(nodeId, now);
      for (const rule of this.rules.values()) {
        if (!rule.enabled || !this.isMounted(rule.id, nodeId)) continue;
        if (rule.metric === 'node.offline') this.step(nodeId, rule, offline, now, now, out);
        else if (offline === 1) {
          const s = this.states.get(nodeId)?.get(rule.id);
          if (s?.phase === 'pending') this.states.get(nodeId)!.delete(rule.id);
        }
      }
    }
    return out;
  }

  /** A deleted node: its open events close and its state is forgotten. */
  forgetNode(nodeId: number, now: number): AlertAction[] {
    const out: AlertAction[] = [];
    for (const [ruleId, s] of this.states.get(nodeId) ?? [])
      if (s.phase === 'firing')
        out.push({ kind: 'close', nodeId, ruleId, at: now, reason: 'node_deleted' });
    this.states.delete(nodeId);
    this.lastReceived.delete(nodeId);
    this.cores.delete(nodeId);
    return out;
  }

  private offlineValue(nodeId: number, now: number): number | undefined {
    const last = this.lastReceived.get(nodeId);
    if (last === undefined) return undefined;
    return now - last > this.opts.staleAfterMs ? 1 : 0;
  }

  private nodeStates(nodeId: number): Map<number, RuleState> {
    let m = this.states.get(nodeId);
    if (!m) this.states.set(nodeId, (m = new Map<number, RuleState>()));
    return m;
  }

  /** One observation of one pair at time `at` (receive time, or now for clock checks). */
  private step(
    nodeId: number,
    rule: AlertRule,
    value: number | undefined,
    at: number,
    now: number,
    out: AlertAction[],
  ): void {
    if (value === undefined) return;
    const states = this.nodeStates(nodeId);
    let state = states.get(rule.id);
    if (state?.phase === 'cooldown' && at >= state.until) {
      states.delete(rule.id);
      state = undefined;
    }
    const cores = this.cores.get(nodeId) ?? 0;
    const threshold = effectiveThreshold(rule, cores);
    // hysteresis: a firing event holds until the value no longer passes the clear threshold
    const hit =
      state?.phase === 'firing'
        ? compare(value, rule.operator, effectiveClearThreshold(rule, cores))
        : compare(value, rule.operator, threshold);
    if (!hit) {
      if (state?.phase === 'firing') {
        out.push({
          kind: 'close',
          nodeId,
          ruleId: rule.id,
          at,
          reason: 'condition_cleared',
          value,
        });
        if (rule.cooldownMin > 0)
          states.set(rule.id, { phase: 'cooldown', until: at + rule.cooldownMin * 60_000 });
        else states.delete(rule.id);
      } else if (state?.phase === 'pending') states.delete(rule.id);
      return;
    }
    if (state?.phase === 'firing') {
      if (at - state.refreshedAt >= REFRESH_EVERY_MS) {
        state.refreshedAt = at;
        out.push({ kind: 'refresh', nodeId, ruleId: rule.id, at, value });
      }
      return;
    }
    if (state?.phase === 'cooldown') return;
    if (!state) {
      state = {
        phase: 'pending',
        since: Math.max(rule.generationAt, at),
        window: { values: [], samples: 0, min: value, max: value },
      };
      states.set(rule.id, state);
    }
    const w = state.window;
    w.values.push(value);
    if (w.values.length > WHY_MAX_VALUES) w.values.shift();
    w.samples++;
    w.min = Math.min(w.min, value);
    w.max = Math.max(w.max, value);
    const heldMs = at - state.since;
    if (heldMs < rule.durationSec * 1000) return;
    if (now - this.opts.startedAt < (this.opts.startupGraceMs ?? STARTUP_GRACE_MS)) return;
    states.set(rule.id, { phase: 'firing', generation: rule.generation, refreshedAt: at });
    out.push({
      kind: 'open',
      nodeId,
      rule,
      at,
      value,
      threshold,
      why: whyLine(rule, value, threshold, state.since, at),
      detail: {
        from: state.since,
        to: at,
        durationSec: rule.durationSec,
        operator: rule.operator,
        threshold,
        ...(rule.clearThreshold !== null
          ? { clearThreshold: effectiveClearThreshold(rule, cores) }
          : {}),
        values: [...w.values],
        samples: w.samples,
        min: w.min,
        max: w.max,
      },
    });
  }
}

function whyLine(
  rule: AlertRule,
  value: number,
  threshold: number,
  since: number,
  at: number,
): string {
  const cond = `${rule.metric} = ${round(value)} ${rule.operator} ${round(threshold)}`;
  if (rule.durationSec === 0) return `${cond} at ${rfc3339(at)}`;
  return `${cond} held from ${rfc3339(since)} to ${rfc3339(at)} (${rule.durationSec} s window)`;
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 10_000) / 10_000);
}
