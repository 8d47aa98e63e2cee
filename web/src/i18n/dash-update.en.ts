/** Strings of the Dash self-update panel (admin settings). */
export const dashUpdateEn = {
  title: 'Dash version',
  current: 'Running version',
  latest: 'Newest release',
  none: 'none in this channel',
  versionStatus: {
    available: 'update available',
    current: 'up to date',
    ahead: 'newer than the feed',
    unknown: 'not comparable',
  } as Record<string, string>,
  notifyAvailable: (v: string) => `Dash ${v} is available.`,
  unavailable: 'Self-update is unavailable',
  check: 'Check for updates',
  update: (v: string) => `Update to ${v}`,
  reinstall: (v: string) => `Reinstall ${v}`,
  running: (v: string, phase: string) => `Updating to ${v}: ${phase}…`,
  completed: (v: string, at: string) =>
    `Last update to ${v} completed at ${at}. Dash restarts into the new version.`,
  failed: (v: string, why: string) => `Last update to ${v} failed: ${why}`,
  notes: 'Release notes',
  log: 'Job log',
  failureCodes: {
    install_changed: 'the installation changed since the check; check again',
    recovery_required:
      'an interrupted update needs recovery: run “dash update recover” on the server',
    rolled_back: 'the interrupted update was rolled back',
    update_running: 'another update was running',
    update_interrupted: 'Dash stopped during the update',
    update_failed: 'the update was refused or failed; the running version is unchanged',
  } as Record<string, string>,
};

export const dashUpdateErrorsEn: Record<string, string> = {
  dash_update_unavailable: 'Self-update is unavailable on this installation.',
  dash_update_check_failed: 'The release feed could not be read.',
  dash_update_current: 'Already on this version; use reinstall.',
  dash_update_failed: 'The update could not be started.',
  release_notes_fetch_failed: 'The release notes could not be loaded.',
};
