import type { Job } from './scheduler.js';
import type { Logger } from '../platform/logger.js';
import type { DashUpdater } from '../updater/service.js';
import type { SystemSettings } from '../domain/settings/system-settings.js';

export interface WatchOptions {
  updater: DashUpdater;
  settings: () => Promise<Pick<SystemSettings, 'dash_update_channel' | 'dash_update_mode'>>;
  log: Logger;
  intervalMs: number;
  /** Local window for auto mode, minutes from midnight in `zone`. */
  window: { start: number; end: number };
  zone: string;
}

export function minuteOfDay(now: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

export function inWindow(minute: number, w: { start: number; end: number }): boolean {
  return w.start < w.end
    ? minute >= w.start && minute < w.end
    : minute >= w.start || minute < w.end;
}

/**
 * dash_update_mode: manual does nothing; notify checks the feed so the admin UI shows the
 * available version (status.update_available_version); auto also starts an update when a
 * newer release exists and the local time is inside the configured window.
 */
export function dashUpdateWatchJob(o: WatchOptions): Job {
  return {
    name: 'dash-update-watch',
    // Often enough to land inside a short window; the feed is read at most once per interval.
    nextRunAt: (now) => now + Math.min(o.intervalMs, 15 * 60_000),
    runOnce: async (now) => {
      const s = await o.settings();
      if (s.dash_update_mode === 'manual') return;
      if (!o.updater.availability().available) return;
      const lastChecked = o.updater.lastCheckedAt();
      const wantAuto =
        s.dash_update_mode === 'auto' && inWindow(minuteOfDay(now, o.zone), o.window);
      if (!wantAuto && lastChecked !== undefined && now - lastChecked < o.intervalMs) return;
      try {
        const check = await o.updater.check(s.dash_update_channel);
        if (check.version_status !== 'available' || !wantAuto) return;
        const started = await o.updater.run({
          action: 'update',
          channel: s.dash_update_channel,
          lang: 'en',
          target_version: check.latest_version,
          expected_current_version: check.current_version,
          expected_install_revision: check.install_revision,
          origin: 'auto',
        });
        o.log.info({ code: started.code, target: check.latest_version }, 'automatic dash update');
      } catch (err) {
        o.log.warn({ err }, 'dash update check failed');
      }
    },
  };
}
