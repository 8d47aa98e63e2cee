import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES } from '../../../src/domain/alerts/builtin-rules.js';
import { NotifyPolicy } from '../../../src/domain/alerts/notify-policy.js';
import type { AlertRule } from '../../../src/domain/alerts/rule.js';
import type { Silence } from '../../../src/domain/alerts/silence.js';
import { FakeClock } from '../../support/fake-clock.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

function rules(patch: Partial<AlertRule> = {}): Map<number, AlertRule> {
  const r: AlertRule = { ...BUILTIN_RULES[1]!, id: 7, name: 'r', ...patch };
  return new Map([[7, r]]);
}

function silence(patch: Partial<Silence>): Silence {
  return {
    id: 1,
    scope: 'node',
    targetId: 1,
    endsAt: T0 + 10 * MIN,
    note: '',
    createdAt: T0,
    ...patch,
  };
}

describe('notification policy: silences', () => {
  it('holds back transitions of a silenced node; the event is marked silenced', () => {
    const p = new NotifyPolicy();
    p.silences = [silence({})];
    expect(p.onOpen(1, 7, T0 + MIN)).toEqual({ notify: false, silenced: true, flapping: false });
    expect(p.onOpen(2, 7, T0 + MIN)).toEqual({ notify: true, silenced: false, flapping: false });
    expect(p.onClose(2, 7, T0 + 2 * MIN, 'condition_cleared').notify).toBe(true);
    // no recovery for an opening nobody was told about
    expect(p.onClose(1, 7, T0 + 2 * MIN, 'condition_cleared').notify).toBe(false);
  });

  it('matches rule and group silences; an expired silence no longer applies (clock)', () => {
    const clock = new FakeClock(T0);
    const p = new NotifyPolicy();
    p.groupsOf = (node) => (node === 3 ? [5] : []);
    p.silences = [
      silence({ scope: 'rule', targetId: 7, endsAt: T0 + MIN }),
      silence({ id: 2, scope: 'group', targetId: 5 }),
    ];
    expect(p.silenced(1, 7, clock.now())).toBe(true);
    expect(p.silenced(1, 8, clock.now())).toBe(false);
    expect(p.silenced(3, 8, clock.now())).toBe(true);
    clock.advance(MIN);
    expect(p.silenced(1, 7, clock.now())).toBe(false); // ended exactly now
    expect(p.silenced(3, 8, clock.now())).toBe(true);
    clock.advance(9 * MIN);
    expect(p.silenced(3, 8, clock.now())).toBe(false);
  });

  it('sends a held-back opening once the silence ends and the event is still open', () => {
    const p = new NotifyPolicy();
    p.silences = [silence({ endsAt: T0 + 5 * MIN })];
    p.onOpen(1, 7, T0);
    expect(p.due(T0 + 4 * MIN, rules())).toEqual([]);
    expect(p.due(T0 + 5 * MIN, rules())).toEqual([
      { kind: 'notify_open', nodeId: 1, ruleId: 7, at: T0 + 5 * MIN },
    ]);
    expect(p.due(T0 + 6 * MIN, rules())).toEqual([]);
    // now it was told: its recovery goes out
    expect(p.onClose(1, 7, T0 + 7 * MIN, 'condition_cleared').notify).toBe(true);
  });

  it('a silence during an open event holds back its recovery and marks it', () => {
    const p = new NotifyPolicy();
    p.onOpen(1, 7, T0 - MIN);
    p.silences = [silence({})];
    expect(p.onClose(1, 7, T0 + MIN, 'condition_cleared')).toEqual({
      notify: false,
      silenced: true,
      flapping: false,
    });
  });
});

describe('notification policy: repeats, cap and acknowledgement', () => {
  it('repeats every interval up to the rule cap, then stops', () => {
    const clock = new FakeClock(T0);
    const p = new NotifyPolicy();
    const r = rules({ repeatIntervalMin: 10, repeatMax: 2 });
    p.onOpen(1, 7, clock.now());
    const seqs: number[] = [];
    for (let i = 0; i < 60; i++) {
      clock.advance(MIN);
      for (const d of p.due(clock.now(), r)) if (d.kind === 'repeat') seqs.push(d.seq);
    }
    expect(seqs).toEqual([1, 2]);
  });

  it('falls back to the global cap; a rule without an interval never repeats', () => {
    const p = new NotifyPolicy();
    p.settings = { ...p.settings, repeatMax: 1 };
    p.onOpen(1, 7, T0);
    expect(p.due(T0 + 30 * MIN, rules())).toEqual([]);
    const r = rules({ repeatIntervalMin: 5 });
    expect(p.due(T0 + 4 * MIN, r)).toEqual([]);
    expect(p.due(T0 + 5 * MIN, r)).toEqual([
      { kind: 'repeat', nodeId: 1, ruleId: 7, at: T0 + 5 * MIN, seq: 1 },
    ]);
    expect(p.due(T0 + 60 * MIN, r)).toEqual([]);
  });

  it('stops repeats once acknowledged; the recovery still goes out', () => {
    const p = new NotifyPolicy();
    const r = rules({ repeatIntervalMin: 5, repeatMax: 10 });
    p.onOpen(1, 7, T0);
    expect(p.due(T0 + 5 * MIN, r)).toHaveLength(1);
    p.ack(1, 7);
    expect(p.due(T0 + 10 * MIN, r)).toEqual([]);
    expect(p.due(T0 + 60 * MIN, r)).toEqual([]);
    expect(p.onClose(1, 7, T0 + 61 * MIN, 'condition_cleared').notify).toBe(true);
  });

  it('skips repeats while silenced, and none when notifications are off', () => {
    const p = new NotifyPolicy();
    const r = rules({ repeatIntervalMin: 5 });
    p.onOpen(1, 7, T0 - 10 * MIN);
    p.silences = [silence({})];
    expect(p.due(T0, r)).toEqual([]);
    expect(p.due(T0 + 10 * MIN, r)).toHaveLength(1);
    p.settings = { ...p.settings, enabled: false };
    expect(p.due(T0 + 30 * MIN, r)).toEqual([]);
  });

  it('restores the repeat count, acknowledgement and notified state after a restart', () => {
    const p = new NotifyPolicy();
    const r = rules({ repeatIntervalMin: 5, repeatMax: 3 });
    p.restore([
      {
        nodeId: 1,
        ruleId: 7,
        firstTriggerAt: T0,
        notified: true,
        silenced: false,
        flapping: false,
        ackedAt: null,
        repeatCount: 2,
        lastNotifiedAt: T0 + 10 * MIN,
      },
      {
        nodeId: 2,
        ruleId: 7,
        firstTriggerAt: T0,
        notified: true,
        silenced: false,
        flapping: false,
        ackedAt: T0,
        repeatCount: 0,
        lastNotifiedAt: null,
      },
    ]);
    expect(p.due(T0 + 14 * MIN, r)).toEqual([]);
    expect(p.due(T0 + 15 * MIN, r)).toEqual([
      { kind: 'repeat', nodeId: 1, ruleId: 7, at: T0 + 15 * MIN, seq: 3 },
    ]);
    expect(p.due(T0 + 30 * MIN, r)).toEqual([]);
  });
});

describe('notification policy: flap suppression', () => {
  const flappy = () => {
    const p = new NotifyPolicy();
    p.settings = { ...p.settings, flapThreshold: 3, flapWindowMin: 10 };
    return p;
  };

  it('notifies the open that makes the pair flapping once, then holds until stable', () => {
    const clock = new FakeClock(T0);
    const p = flappy();
    const opens: boolean[] = [];
    const closes: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      const o = p.onOpen(1, 7, clock.now());
      opens.push(o.notify);
      clock.advance(MIN);
      closes.push(p.onClose(1, 7, clock.now(), 'condition_cleared').notify);
      clock.advance(MIN);
    }
    expect(opens).toEqual([true, true, true, true, false, false]);
    expect(closes).toEqual([true, true, true, false, false, false]);
    expect(p.onOpen(1, 7, clock.now())).toEqual({ notify: false, silenced: false, flapping: true });
    p.onClose(1, 7, clock.now() + 1000, 'condition_cleared');
    // stable: a whole window without an open
    clock.advance(10 * MIN);
    expect(p.onOpen(1, 7, clock.now())).toEqual({ notify: true, silenced: false, flapping: false });
    // other pairs are not affected
    expect(p.onOpen(2, 7, clock.now()).notify).toBe(true);
  });

  it('a held-back event still open once the pair is stable notifies its opening', () => {
    const clock = new FakeClock(T0);
    const p = flappy();
    for (let i = 0; i < 5; i++) {
      p.onOpen(1, 7, clock.now());
      clock.advance(MIN);
      p.onClose(1, 7, clock.now(), 'condition_cleared');
      clock.advance(MIN);
    }
    expect(p.onOpen(1, 7, clock.now()).notify).toBe(false); // stays open now
    const openedAt = clock.now();
    expect(p.due(openedAt + 9 * MIN, rules())).toEqual([]);
    expect(p.due(openedAt + 10 * MIN, rules())).toEqual([
      { kind: 'notify_open', nodeId: 1, ruleId: 7, at: openedAt + 10 * MIN },
    ]);
  });

  it('is off with flap threshold 0', () => {
    const p = new NotifyPolicy();
    for (let i = 0; i < 50; i++) {
      expect(p.onOpen(1, 7, T0 + i * 1000).notify).toBe(true);
      p.onClose(1, 7, T0 + i * 1000 + 500, 'condition_cleared');
    }
  });
});

describe('notification policy: close reasons and the global switch', () => {
  it('notifies only cleared conditions, and nothing when notifications are off', () => {
    const p = new NotifyPolicy();
    p.onOpen(1, 7, T0);
    expect(p.onClose(1, 7, T0 + 1, 'rule_deleted').notify).toBe(false);
    p.settings = { ...p.settings, enabled: false };
    expect(p.onOpen(1, 7, T0 + 2).notify).toBe(false);
    expect(p.onClose(1, 7, T0 + 3, 'condition_cleared').notify).toBe(false);
  });
});
