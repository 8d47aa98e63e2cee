/** Phases of a Dash update job in order (docs/operations.md). */
export const UPDATE_PHASES = [
  'queued',
  'locked',
  'download',
  'validate',
  'prepared',
  'switching',
  'starting',
  'cleanup',
  'done',
] as const;

/** 0-100 progress of a job from its phase; unknown phases count as just started. */
export function phaseProgress(phase: string | undefined): number {
  const i = UPDATE_PHASES.indexOf((phase ?? 'queued') as (typeof UPDATE_PHASES)[number]);
  if (i < 0) return 0;
  return Math.round((i / (UPDATE_PHASES.length - 1)) * 100);
}

/** The update button's action: update to a newer version, otherwise reinstall the current. */
export function updateAction(versionStatus: string): 'update' | 'reinstall' {
  return versionStatus === 'available' ? 'update' : 'reinstall';
}
