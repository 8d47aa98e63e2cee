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
  generation: number;
  generationAt: number;
  createdAt: number;
  updatedAt: number;
}

export type AlertRuleWrite = Omit<
  AlertRuleRow,
  'id' | 'generation' | 'generationAt' | 'createdAt' | 'updatedAt'
>;

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
      notify: boolean;
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
    };

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
  settings(): Promise<
    { enabled: boolean; channelIds: number[]; createdAt: number; updatedAt: number } | undefined
  >;
  putSettings(enabled: boolean, channelIds: number[], now: number): Promise<void>;
  /** Live nodes with their groups (mount targets and event filters). */
  nodes(): Promise<AlertNodeRef[]>;
  openEvents(): Promise<
    Array<{ nodeId: number; ruleId: number; generation: number; lastTriggerAt: number }>
  >;
  /** Writes the transitions in order in one transaction, each open/close with its outbox row. */
  applyTransitions(writes: readonly AlertTransitionWrite[]): Promise<void>;
  events(query: AlertEventQuery): Promise<AlertEventRow[]>;
  /** Open events of live nodes, latest first. */
  openEventRows(): Promise<AlertEventRow[]>;
}
