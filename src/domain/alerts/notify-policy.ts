import type { CloseReason } from './evaluator.js';
import type { AlertRule } from './rule.js';
import { silenceMatches, type Silence } from './silence.js';

/** The global notification settings beyond `channel_ids`. */
export interface NotifySettings {
  enabled: boolean;
  /** Repeat notifications per open event at most, unless the rule sets its own cap. */
  repeatMax: number;
  /** More opens than this within the window make a node/rule pair flapping; 0 = off. */
  flapThreshold: number;
  flapWindowMin: number;
}

export const DEFAULT_NOTIFY_SETTINGS: NotifySettings = {
  enabled: true,
  repeatMax: 3,
  flapThreshold: 0,
  flapWindowMin: 60,
};

/** What to do with one transition: hand it to delivery or not, and how to mark the event. */
export interface NotifyDecision {
  notify: boolean;
  silenced: boolean;
  flapping: boolean;
}

/** An open event as stored, to resume its notification state after a restart. */
export interface OpenNotifyState {
  nodeId: number;
  ruleId: number;
  firstTriggerAt: number;
  /** Its `opened` notification was handed to delivery. */
  notified: boolean;
  silenced: boolean;
  flapping: boolean;
  ackedAt: number | null;
  repeatCount: number;
  lastNotifiedAt: number | null;
}

/** Notifications the clock makes due: a repeat, or an open held back by a silence that ended. */
export type DueNotification =
  | { kind: 'repeat'; nodeId: number; ruleId: number; at: number; seq: number }
  | { kind: 'notify_open'; nodeId: number; ruleId: number; at: number };

interface OpenState {
  notified: boolean;
  /** The open was held back by a silence: it goes out when the silence ends, if still open. */
  held: boolean;
  acked: boolean;
  repeats: number;
  lastNotifiedAt: number;
}

interface FlapState {
  opens: number[];
  flapping: boolean;
}

const key = (nodeId: number, ruleId: number) => `${nodeId}:${ruleId}`;
const split = (k: string) => k.split(':').map(Number) as [number, number];

/**
 * Which alert transitions become notifications (in memory, synchronous, clock-free: every
 * call passes its time). Beyond the reference:
 * - silences hold back every notification of a matching pair until they end (an open held
 *   back goes out when the silence ends and the event is still open and not acknowledged);
 * - a recovery goes out only for an event whose opening went out;
 * - repeats of an open event every `repeatIntervalMin`, at most the rule's or the global cap,
 *   none once acknowledged;
 * - a pair that opens more than `flapThreshold` times within the window is flapping: that
 *   open notifies once, then nothing until the pair had no open for a whole window; an event
 *   still open then, whose opening was held back, notifies its opening.
 */
export class NotifyPolicy {
  settings: NotifySettings = { ...DEFAULT_NOTIFY_SETTINGS };
  silences: readonly Silence[] = [];
  groupsOf: (nodeId: number) => readonly number[] = () => [];
  private readonly open = new Map<string, OpenState>();
  private readonly flaps = new Map<string, FlapState>();

  restore(rows: readonly OpenNotifyState[]): void {
    for (const r of rows) {
      const k = key(r.nodeId, r.ruleId);
      this.open.set(k, {
        notified: r.notified,
        held: !r.notified && r.silenced,
        acked: r.ackedAt !== null,
        repeats: r.repeatCount,
        lastNotifiedAt: r.lastNotifiedAt ?? r.firstTriggerAt,
      });
      if (r.flapping) this.flaps.set(k, { opens: [r.firstTriggerAt], flapping: true });
    }
  }

  silenced(nodeId: number, ruleId: number, at: number): boolean {
    if (this.silences.length === 0) return false;
    const target = { nodeId, ruleId, groupIds: this.groupsOf(nodeId) };
    return this.silences.some((s) => silenceMatches(s, target, at));
  }

  onOpen(nodeId: number, ruleId: number, at: number): NotifyDecision {
    const k = key(nodeId, ruleId);
    const flap = this.flapStep(k, at);
    const silenced = this.silenced(nodeId, ruleId, at);
    const notify = this.settings.enabled && flap !== 'held' && !silenced;
    this.open.set(k, {
      notified: notify,
      held: this.settings.enabled && !notify,
      acked: false,
      repeats: 0,
      lastNotifiedAt: at,
    });
    return { notify, silenced, flapping: flap !== 'steady' };
  }

  onClose(nodeId: number, ruleId: number, at: number, reason: CloseReason): NotifyDecision {
    const k = key(nodeId, ruleId);
    const state = this.open.get(k);
    this.open.delete(k);
    const flapping = this.flaps.get(k)?.flapping ?? false;
    const silenced = this.silenced(nodeId, ruleId, at);
    // only a cleared condition is news to a human; edits and deletions are the admin's own doing
    const notify =
      this.settings.enabled &&
      reason === 'condition_cleared' &&
      state?.notified === true &&
      !silenced &&
      !flapping;
    return { notify, silenced: silenced && state?.notified === true, flapping };
  }

  /** Acknowledged: the event stays open, its repeats (and a held-back opening) stop. */
  ack(nodeId: number, ruleId: number): void {
    const s = this.open.get(key(nodeId, ruleId));
    if (s) s.acked = true;
  }

  forgetNode(nodeId: number): void {
    for (const k of [...this.flaps.keys()]) if (split(k)[0] === nodeId) this.flaps.delete(k);
  }

  /** Repeats and held-back openings due at `now`. */
  due(now: number, rules: ReadonlyMap<number, AlertRule>): DueNotification[] {
    const out: DueNotification[] = [];
    if (!this.settings.enabled) return out;
    const windowMs = this.settings.flapWindowMin * 60_000;
    for (const [k, f] of this.flaps) {
      const last = f.opens.at(-1) ?? 0;
      if (now - last < windowMs) continue;
      if (this.open.has(k)) f.flapping = false;
      else this.flaps.delete(k);
    }
    for (const [k, s] of this.open) {
      if (s.acked || (!s.notified && !s.held)) continue;
      if (this.flaps.get(k)?.flapping) continue;
      const [nodeId, ruleId] = split(k);
      if (this.silenced(nodeId, ruleId, now)) continue;
      if (!s.notified) {
        s.notified = true;
        s.held = false;
        s.lastNotifiedAt = now;
        out.push({ kind: 'notify_open', nodeId, ruleId, at: now });
        continue;
      }
      const rule = rules.get(ruleId);
      if (!rule || rule.repeatIntervalMin === 0) continue;
      if (s.repeats >= (rule.repeatMax ?? this.settings.repeatMax)) continue;
      if (now - s.lastNotifiedAt < rule.repeatIntervalMin * 60_000) continue;
      s.repeats++;
      s.lastNotifiedAt = now;
      out.push({ kind: 'repeat', nodeId, ruleId, at: now, seq: s.repeats });
    }
    return out;
  }

  /**
   * One open of a pair: `entered` when it makes the pair flapping (that open notifies once),
   * `held` while it stays flapping, `steady` otherwise. A flapping pair is stable again after a
   * whole window without an open.
   */
  private flapStep(k: string, at: number): 'steady' | 'entered' | 'held' {
    const { flapThreshold, flapWindowMin } = this.settings;
    if (flapThreshold <= 0) {
      this.flaps.delete(k);
      return 'steady';
    }
    const windowMs = flapWindowMin * 60_000;
    const f = this.flaps.get(k) ?? { opens: [], flapping: false };
    this.flaps.set(k, f);
    const last = f.opens.at(-1);
    if (f.flapping && last !== undefined && at - last >= windowMs) f.flapping = false;
    f.opens = f.opens.filter((t) => at - t < windowMs);
    f.opens.push(at);
    if (f.flapping) return 'held';
    if (f.opens.length > flapThreshold) {
      f.flapping = true;
      return 'entered';
    }
    return 'steady';
  }
}
