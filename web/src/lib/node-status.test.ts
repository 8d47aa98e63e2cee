import { describe, expect, it } from 'vitest';
import { nodeView } from '../test/fixtures/nodes';
import { isOffline, nodeTemperature, reuseUnchanged } from './node-status';

const at = '2025-03-01T10:00:00Z';
const t0 = Date.parse(at);

describe('isOffline', () => {
  it('turns offline only after stale_after_sec has passed since the receive time', () => {
    const v = nodeView(1, 'a', at);
    expect(isOffline(v, t0 + 17_000)).toBe(false);
    expect(isOffline(v, t0 + 17_001)).toBe(true);
  });

  it('treats a node without a receive time as offline', () => {
    const v = nodeView(1, 'a', at);
    const { received_at: _drop, ...observation } = v.observation;
    expect(isOffline({ ...v, observation }, t0)).toBe(true);
  });
});

describe('nodeTemperature', () => {
  it('prefers the hottest CPU sensor over other kinds', () => {
    expect(nodeTemperature(nodeView(1, 'a', at))).toBe(48);
  });

  it('falls back to any sensor, and to null without sensors', () => {
    const v = nodeView(1, 'a', at, {
      thermal: {
        status: 'ok',
        sensors: [
          { kind: 'board', name: 'b', sensor_key: 'b', source: 'x', status: 'ok', temp_c: 40 },
        ],
      },
    });
    expect(nodeTemperature(v)).toBe(40);
    expect(nodeTemperature(nodeView(1, 'a', at, { thermal: undefined }))).toBeNull();
  });
});

describe('reuseUnchanged', () => {
  it('keeps the previous object for nodes whose report did not change', () => {
    const prev = [nodeView(1, 'a', at), nodeView(2, 'b', at)];
    const next = [nodeView(1, 'a', at), nodeView(2, 'b', '2025-03-01T10:00:03Z')];
    const out = reuseUnchanged(prev, next);
    expect(out[0]).toBe(prev[0]);
    expect(out[1]).toBe(next[1]);
  });

  it('returns the previous array itself when nothing changed', () => {
    const prev = [nodeView(1, 'a', at), nodeView(2, 'b', at)];
    const next = [nodeView(1, 'a', at), nodeView(2, 'b', at)];
    expect(reuseUnchanged(prev, next)).toBe(prev);
  });

  it('takes the new object when only the metadata (title, tags) changed', () => {
    const prev = [nodeView(1, 'a', at)];
    const next = [nodeView(1, 'renamed', at)];
    expect(reuseUnchanged(prev, next)[0]).toBe(next[0]);
  });

  it('follows a new order from the server', () => {
    const prev = [nodeView(1, 'a', at), nodeView(2, 'b', at)];
    const next = [nodeView(2, 'b', at), nodeView(1, 'a', at)];
    const out = reuseUnchanged(prev, next);
    expect(out.map((v) => v.node.id)).toEqual(['2', '1']);
    expect(out[0]).toBe(prev[1]);
  });
});
