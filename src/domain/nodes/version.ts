import semver from 'semver';

/** Oldest agent that applies update manifests from the metrics response (spec §4.4.10). */
export const AUTO_UPDATE_MIN_VERSION = '0.2.3';

/**
 * Oldest agent that sends X-Node-Secret when it downloads an upgrade. Older agents that apply
 * manifests (0.2.3 up to 0.2.x, the reference agent's line) fetch the URL with no header at all,
 * so they need an upgrade_token grant; Dash's own agent authenticates from 0.3.0 on.
 */
export const AUTHENTICATED_DOWNLOAD_MIN_VERSION = '0.3.0';

/** A strict SemVer version (no `v` prefix, no loose forms), or null. */
export function parseVersion(text: string): semver.SemVer | null {
  const t = text.trim();
  if (!/^\d/.test(t)) return null;
  return semver.parse(t, { loose: false });
}

/** True when the version is valid and at least 0.2.3 by precedence (build metadata ignored). */
export function supportsAutoUpdate(version: string): boolean {
  const v = parseVersion(version);
  return v !== null && semver.gte(v, AUTO_UPDATE_MIN_VERSION);
}

/** Missing or invalid versions are outdated; every valid one is at or above the floor. */
export function isOutdated(version: string): boolean {
  return parseVersion(version) === null;
}

/**
 * Whether a node reporting `reported` should still receive `target`: it should when the target
 * has higher precedence, or equal precedence with different build metadata (a distinct binary).
 * An unparseable report cannot be compared, so the target is still offered.
 */
export function isUpdateTarget(target: semver.SemVer, reported: string): boolean {
  const current = parseVersion(reported);
  if (current === null) return true;
  const cmp = semver.compare(target, current);
  if (cmp !== 0) return cmp > 0;
  return target.build.join('.') !== current.build.join('.');
}

/**
 * A legacy node cannot authenticate its upgrade download (spec §2.7): any version below
 * AUTHENTICATED_DOWNLOAD_MIN_VERSION, and any version we cannot read, since only a grant is sure
 * to work for it.
 */
export function isLegacyDownloader(version: string): boolean {
  const v = parseVersion(version);
  return v === null || semver.lt(v, AUTHENTICATED_DOWNLOAD_MIN_VERSION);
}
