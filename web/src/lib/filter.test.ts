import { describe, expect, it } from 'vitest';
import { frontGroups, nodeView } from '../test/fixtures/nodes';
import { applyFilter, matchesSearch } from './filter';

const at = '2025-03-01T10:00:00Z';
const alpha = nodeView(1, 'alpha', at, { tags: ['prod', 'eu-west'], order: 1 });
const beta = nodeView(2, 'beta', at, { tags: ['edge'], order: 3 });
const gamma = nodeView(3, 'Gamma 10', at, { order: 3 });
const nodes = [alpha, beta, gamma];
const ids = (list: { node: { id: string } }[]) => list.map((v) => v.node.id);

describe('node search', () => {
  it('matches names and tags case-insensitively, every word required', () => {
    expect(matchesSearch(alpha, 'ALP')).toBe(true);
    expect(matchesSearch(alpha, 'eu-west')).toBe(true);
    expect(matchesSearch(alpha, 'prod eu')).toBe(true);
    expect(matchesSearch(alpha, 'prod edge')).toBe(false);
    expect(matchesSearch(beta, '  ')).toBe(true);
  });

  it('also matches the server search text (os, platform, arch)', () => {
    expect(matchesSearch(alpha, 'debian')).toBe(true);
  });
});

describe('applyFilter', () => {
  it('keeps the server display order: order desc, then title, then id', () => {
    expect(ids(applyFilter(nodes, [], { groupId: null, search: '', sort: 'order' }))).toEqual([
      '2',
      '3',
      '1',
    ]);
  });

  it('filters by group membership', () => {
    const out = applyFilter(nodes, frontGroups(), { groupId: 2, search: '', sort: 'order' });
    expect(ids(out)).toEqual(['2']);
    const none = applyFilter(nodes, frontGroups(), { groupId: 99, search: '', sort: 'order' });
    expect(none).toEqual([]);
  });

  it('sorts by name with numeric awareness and by usage descending', () => {
    expect(ids(applyFilter(nodes, [], { groupId: null, search: '', sort: 'name' }))).toEqual([
      '1',
      '2',
      '3',
    ]);
    // Fixture CPU usage grows with id.
    expect(ids(applyFilter(nodes, [], { groupId: null, search: '', sort: 'cpu' }))).toEqual([
      '3',
      '2',
      '1',
    ]);
  });

  it('does not reorder the input array', () => {
    const input = [alpha, beta];
    applyFilter(input, [], { groupId: null, search: '', sort: 'name' });
    expect(input).toEqual([alpha, beta]);
  });

  it('filters by status and sorts offline nodes first', () => {
    const st = { offline: new Set(['1']), alerting: new Set(['3']) };
    const f = { groupId: null, search: '', sort: 'order' as const };
    expect(ids(applyFilter(nodes, [], { ...f, status: 'online' }, st))).toEqual(['2', '3']);
    expect(ids(applyFilter(nodes, [], { ...f, status: 'offline' }, st))).toEqual(['1']);
    expect(ids(applyFilter(nodes, [], { ...f, status: 'alerting' }, st))).toEqual(['3']);
    expect(ids(applyFilter(nodes, [], { ...f, sort: 'offline' }, st))).toEqual(['1', '2', '3']);
  });
});
