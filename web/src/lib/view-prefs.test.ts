import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_COLUMNS,
  loadColumns,
  loadView,
  saveColumns,
  saveView,
  toggleColumn,
} from './view-prefs';

describe('dashboard view preferences', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to cards and the default columns', () => {
    expect(loadView()).toBe('cards');
    expect(loadColumns()).toEqual(DEFAULT_COLUMNS);
  });

  it('persists the view and the chosen columns', () => {
    saveView('table');
    expect(loadView()).toBe('table');
    saveColumns(['name', 'load', 'status']);
    expect(loadColumns()).toEqual(['status', 'name', 'load']);
  });

  it('ignores unknown or broken saved columns and keeps the fixed ones', () => {
    localStorage.setItem('dash.dashboard.columns', '["cpu","bogus"]');
    expect(loadColumns()).toEqual(['status', 'name', 'cpu']);
    localStorage.setItem('dash.dashboard.columns', '{not json');
    expect(loadColumns()).toEqual(DEFAULT_COLUMNS);
  });

  it('toggles a column in canonical order and never drops a fixed one', () => {
    expect(toggleColumn(['status', 'name', 'uptime'], 'cpu')).toEqual([
      'status',
      'name',
      'cpu',
      'uptime',
    ]);
    expect(toggleColumn(['status', 'name', 'cpu'], 'cpu')).toEqual(['status', 'name']);
    expect(toggleColumn(['status', 'name'], 'name')).toEqual(['status', 'name']);
  });
});
