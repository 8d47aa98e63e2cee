import type { ChannelWrite, PendingTransition } from '../../../src/store/ports.js';
import { readRows, type EngineStore } from '../engines.js';

/** Fixtures of the channels contract suites: a channel, outbox rows, alert transitions. */

export const HOOK: ChannelWrite = {
  name: 'hook',
  type: 'webhook',
  sealedConfig: 'sealed',
  enabled: true,
};

export type ItemRow = {
  id: number;
  channel_id: number;
  dedupe_key: string;
  payload: string;
  state: string;
  attempts: number;
  probes: number;
  next_at: number;
  lease_until: number | null;
  finished_at: number | null;
  last_error_code: string | null;
};

export const items = (store: EngineStore) =>
  readRows<ItemRow>(
    store,
    `SELECT id, channel_id, dedupe_key, payload, state, attempts, probes, next_at, lease_until,
       finished_at, last_error_code FROM notify_outbox ORDER BY id`,
  );

export const states = async (store: EngineStore) =>
  (await items(store)).map((i) => `${i.dedupe_key}=${i.state}`);

export const compose = (t: PendingTransition) => `${t.nodeName}/${t.ruleName}/${t.transition}`;

/** Opens an event on each node (one `opened` transition each), ids 1…n. */
export async function openEvents(store: EngineStore, nodes: number, at = 1000): Promise<void> {
  await store.alerts.applyTransitions(
    Array.from({ length: nodes }, (_, i) => ({
      kind: 'open' as const,
      nodeId: i + 1,
      ruleId: 1,
      ruleGeneration: 1,
      ruleName: 'CPU high',
      metric: 'cpu.usage_ratio',
      at,
      value: 0.9,
      threshold: 0.8,
      title: 'CPU high',
      message: 'cpu high',
      why: {
        from: at,
        to: at,
        durationSec: 0,
        operator: '>',
        threshold: 0.8,
        values: [0.9],
        samples: 1,
        min: 0.9,
        max: 0.9,
      },
      notify: true,
      silenced: false,
      flapping: false,
    })),
  );
}

export async function useChannels(store: EngineStore, channelIds: number[]): Promise<void> {
  await store.alerts.putSettings(
    { enabled: true, channelIds, repeatMax: 3, flapThreshold: 0, flapWindowMin: 60 },
    1,
  );
}
