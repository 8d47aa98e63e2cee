/** Alert ports (split from ports.ts, which re-exports them). */
// ---- Alerts (issue 15) ----------------------------------------------------------------------

export interface AlertRuleRow {
  id: number;
  name: string;
  enabled: boolean;
  metric: string;
  operator: string;
  threshold: number;
  durationSec: number;
  cooldownMin: number;
  thresholdMode: string;
  thresholdOffset: number;
  clearThreshold: number | null;
  repeatIntervalMin: number;
  repeatMax: number | null;
  generation: number;
  generationAt: number;
  createdAt: number;
  updatedAt: number;
}

export type AlertRuleWrite = Omit<
  AlertRuleRow,
  'id' | 'generation' | 'generationAt' | 'createdAt' | 'updatedAt'
>;

/** "Why it fired": the window and the values that crossed the threshold (stored as JSON). */
export interface AlertWhy {
  /** First and last observation of the window (epoch ms). */
  from: number;
  to: number;
  durationSec: number;
  operator: string;
  threshold: number;
  /** Present when the rule has a separate clear threshold (in force for this node). */
  clearThreshold?: number;
  /** The latest observed values of the window, oldest first (at most 10). */
  values: number[];
  samples: number;
  min: number;
  max: number;
}

export interface AlertEventRow {
  id: number;
  ruleId: number;
  ruleGeneration: number;
  ruleName: string;
  nodeId: number;
  nodeName: string;
  nodeHostname: string;
  nodeIp: string | null;
  status: 'open' | 'closed';
  metric: string;
  firstTriggerAt: number;
  lastTriggerAt: number;
  closedAt: number | null;
  currentValue: number | null;
  effectiveThreshold: number | null;
  closeReason: string | null;
  title: string | null;
  message: string | null;
  why: AlertWhy | null;
  ackedAt: number | null;
  /** A notification of this event was held back by a silence. */
  silenced: boolean;
  /** The event belongs to a flapping node/rule pair. */
  flapping: boolean;
  repeatCount: number;
}

export interface AlertEventQuery {
  nodeId?: number;
  status: 'open' | 'closed' | 'all';
  metric?: string;
  from?: number;
  to?: number;
  /** Rows strictly after this position in (last_trigger_at DESC, id DESC) order. */
  after?: { lastTriggerAt: number; id: number };
  limit: number;
}

/** One state change of an event, persisted with its outbox row in one transaction. */
export type AlertTransitionWrite =
  | {
      kind: 'open';
      nodeId: number;
      ruleId: number;
      ruleGeneration: number;
      ruleName: string;
      metric: string;
      at: number;
      value: number;
      threshold: number;
      title: string;
      message: string;
      why: AlertWhy;
      notify: boolean;
      silenced: boolean;
      flapping: boolean;
    }
  | { kind: 'refresh'; nodeId: number; ruleId: number; at: number; value: number }
  | {
      kind: 'close';
      nodeId: number;
      ruleId: number;
      at: number;
      reason: string;
      value?: number;
      notify: boolean;
      silenced: boolean;
      flapping: boolean;
    }
  /** A repeat notification of the open event (`seq` counts from 1). */
  | { kind: 'repeat'; nodeId: number; ruleId: number; at: number; seq: number }
  /** The opening of the open event, held back by a silence, goes out now. */
  | { kind: 'notify_open'; nodeId: number; ruleId: number; at: number };

export interface AlertSilenceRow {
  id: number;
  scope: 'node' | 'group' | 'rule';
  targetId: number;
  endsAt: number;
  note: string;
  createdAt: number;
}

export interface AlertSettingsRow {
  enabled: boolean;
  channelIds: number[];
  repeatMax: number;
  flapThreshold: number;
  flapWindowMin: number;
  createdAt: number;
  updatedAt: number;
}

export interface AlertSettingsWrite {
  enabled: boolean;
  channelIds: number[];
  repeatMax: number;
  flapThreshold: number;
  flapWindowMin: number;
}

/** An open event's notification state, read back at start. */
export interface AlertOpenEventKey {
  nodeId: number;
  ruleId: number;
  generation: number;
  firstTriggerAt: number;
  lastTriggerAt: number;
  notified: boolean;
  silenced: boolean;
  flapping: boolean;
  ackedAt: number | null;
  repeatCount: number;
  lastNotifiedAt: number | null;
}

export interface AlertNodeRef {
  id: number;
  name: string;
  hostname: string;
  ip: string | null;
  groupIds: number[];
}

export interface AlertsRepo {
  /** Live user rules, newest id first. */
  rules(): Promise<AlertRuleRow[]>;
  createRule(rule: AlertRuleWrite, now: number): Promise<number>;
  /** Applies changes to a live rule; `newGeneration` starts a new generation at `now`. */
  updateRule(
    id: number,
    changes: Partial<AlertRuleWrite>,
    newGeneration: boolean,
    now: number,
  ): Promise<boolean>;
  deleteRule(id: number, now: number): Promise<boolean>;
  mounts(): Promise<Array<{ ruleId: number; nodeId: number; mounted: boolean }>>;
  setMounts(ruleIds: number[], nodeIds: number[], mounted: boolean): Promise<void>;
  settings(): Promise<AlertSettingsRow | undefined>;
  putSettings(settings: AlertSettingsWrite, now: number): Promise<void>;
  /** Live nodes with their groups (mount targets and event filters). */
  nodes(): Promise<AlertNodeRef[]>;
  /** Live groups (silence targets). */
  groups(): Promise<Array<{ id: number; name: string }>>;
  openEvents(): Promise<AlertOpenEventKey[]>;
  /**
   * Acknowledges an event once (a second call keeps the first time). Undefined when there is
   * no such event of a live node.
   */
  ackEvent(
    id: number,
    now: number,
  ): Promise<{ nodeId: number; ruleId: number; status: 'open' | 'closed' } | undefined>;
  silences(): Promise<AlertSilenceRow[]>;
  createSilence(write: Omit<AlertSilenceRow, 'id' | 'createdAt'>, now: number): Promise<number>;
  deleteSilence(id: number): Promise<boolean>;
  /** Writes the transitions in order in one transaction, each open/close with its outbox row. */
  applyTransitions(writes: readonly AlertTransitionWrite[]): Promise<void>;
  events(query: AlertEventQuery): Promise<AlertEventRow[]>;
  /** Open events of live nodes, latest first. */
  openEventRows(): Promise<AlertEventRow[]>;
}
