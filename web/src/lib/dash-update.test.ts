import { describe, expect, it } from 'vitest';
import { phaseProgress, updateAction } from './dash-update';

describe('dash update helpers', () => {
  it('maps phases to progress, start 0 and done 100', () => {
    expect(phaseProgress('queued')).toBe(0);
    expect(phaseProgress(undefined)).toBe(0);
    expect(phaseProgress('switching')).toBe(63);
    expect(phaseProgress('done')).toBe(100);
    expect(phaseProgress('bogus')).toBe(0);
  });

  it('offers update only when a newer version is available', () => {
    expect(updateAction('available')).toBe('update');
    expect(updateAction('current')).toBe('reinstall');
    expect(updateAction('ahead')).toBe('reinstall');
  });
});
