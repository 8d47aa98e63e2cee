import { describe, expect, it } from 'vitest';
import { adminNode } from '../test/fixtures/nodes';
import { buildPatch, formFromNode, generateSecret, installCommand, parseTags } from './node-form';

describe('parseTags', () => {
  it('trims, drops empties and duplicates, keeps order', () => {
    expect(parseTags(' prod, eu ,, prod,edge ')).toEqual(['prod', 'eu', 'edge']);
    expect(parseTags('')).toEqual([]);
  });
});

describe('buildPatch', () => {
  const node = adminNode(7, 'web-1', { tags: ['prod'], group_ids: [1] });

  it('returns null when nothing changed', () => {
    expect(buildPatch(node, formFromNode(node))).toBeNull();
  });

  it('sends only changed plain fields', () => {
    const f = { ...formFromNode(node), name: ' web-2 ', tagsText: 'prod, eu', guestVisible: true };
    expect(buildPatch(node, f)).toEqual({
      name: 'web-2',
      tags: ['prod', 'eu'],
      is_guest_visible: true,
    });
  });

  it('treats group order as irrelevant', () => {
    const n = adminNode(1, 'a', { group_ids: [1, 2] });
    expect(buildPatch(n, { ...formFromNode(n), groupIds: [2, 1] })).toBeNull();
    expect(buildPatch(n, { ...formFromNode(n), groupIds: [2] })).toEqual({ group_ids: [2] });
  });

  it('sends exactly the cycle fields each mode requires', () => {
    const clamp = buildPatch(node, {
      ...formFromNode(node),
      cycleMode: 'clamp_to_month_end',
      startDay: '31',
      timezone: 'Europe/Berlin',
    });
    expect(clamp).toEqual({
      traffic_cycle_mode: 'clamp_to_month_end',
      traffic_billing_start_day: 31,
      traffic_billing_timezone: 'Europe/Berlin',
    });
    const whmcs = buildPatch(node, {
      ...formFromNode(node),
      cycleMode: 'whmcs_compatible',
      anchorDate: '2025-01-31',
    });
    expect(whmcs).toEqual({
      traffic_cycle_mode: 'whmcs_compatible',
      traffic_billing_anchor_date: '2025-01-31',
      traffic_billing_timezone: '',
    });
    const tzOnly = buildPatch(node, { ...formFromNode(node), timezone: 'UTC' });
    expect(tzOnly).toEqual({
      traffic_cycle_mode: 'calendar_month',
      traffic_billing_timezone: 'UTC',
    });
  });

  it('sends the direction mode alone', () => {
    expect(buildPatch(node, { ...formFromNode(node), direction: 'max' })).toEqual({
      traffic_direction_mode: 'max',
    });
  });
});

describe('secrets and install commands', () => {
  it('generates alphanumeric secrets inside the 8-128 limit, different each time', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(generateSecret()).not.toBe(a);
  });

  it('appends the secret to the server prefix', () => {
    expect(installCommand('curl -fsSL x | sudo bash -s -- h ', 'S3cret')).toBe(
      'curl -fsSL x | sudo bash -s -- h S3cret',
    );
    expect(installCommand('cmd', 'S')).toBe('cmd S');
  });
});
