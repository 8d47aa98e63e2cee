import { describe, expect, it } from 'vitest';
import {
  isLegacyDownloader,
  isOutdated,
  isUpdateTarget,
  parseVersion,
  supportsAutoUpdate,
} from '../../../src/domain/nodes/version.js';

describe('node versions', () => {
  it.each([
    ['0.2.3', true],
    ['0.2.3+build.7', true],
    ['0.2.4', true],
    ['1.0.0-rc.1', true],
    ['0.2.3-rc.1', false],
    ['0.2.2', false],
    ['0.2.2+build', false],
    ['unknown', false],
    ['', false],
    ['v0.3.0', false],
    ['0.3', false],
  ])('supports_auto_update(%j) is %s (SemVer precedence)', (version, expected) => {
    expect(supportsAutoUpdate(version)).toBe(expected);
  });

  it.each([
    ['0.2.3', true],
    ['0.2.9+build.1', true],
    ['0.3.0-rc.1', true],
    ['unknown', true],
    ['0.3.0', false],
    ['0.3.0+build.2', false],
    ['1.2.0', false],
  ])('a node reporting %j is a legacy downloader: %s', (version, expected) => {
    expect(isLegacyDownloader(version)).toBe(expected);
  });

  it('is outdated only when missing or invalid', () => {
    expect(isOutdated('unknown')).toBe(true);
    expect(isOutdated('')).toBe(true);
    expect(isOutdated('0.0.1')).toBe(false);
  });

  const target = (v: string) => {
    const parsed = parseVersion(v);
    if (!parsed) throw new Error(v);
    return parsed;
  };

  it.each([
    ['0.3.0', '0.2.9', true],
    ['0.3.0', '0.3.0', false],
    ['0.3.0', '0.3.1', false],
    ['0.3.0', '0.3.0-rc.1', true],
    ['0.3.0-rc.2', '0.3.0-rc.1', true],
    ['0.3.0-rc.1', '0.3.0-rc.2', false],
    ['0.3.0-rc.1', '0.3.0', false],
    ['0.3.0+b2', '0.3.0+b1', true],
    ['0.3.0+b2', '0.3.0', true],
    ['0.3.0', '0.3.0+b1', true],
    ['0.3.0+b2', '0.3.0+b2', false],
    ['0.3.0+b2', '0.3.1+b2', false],
    ['0.3.0', 'garbage', true],
  ])('target %s for a node reporting %s: offered=%s', (t, reported, expected) => {
    expect(isUpdateTarget(target(t), reported)).toBe(expected);
  });
});
