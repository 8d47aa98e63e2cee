import { AppError } from '../../errors/app-error.js';
import { RELEASE_CHANNELS, type ReleaseChannel } from '../../updater/manifest.js';

export { RunBody, UpdateQuery } from '../../protocol/api/dash-update.js';

export function parseChannel(v: string | undefined, fallback: ReleaseChannel): ReleaseChannel {
  if (v === undefined || v === '') return fallback;
  if (!(RELEASE_CHANNELS as readonly string[]).includes(v)) {
    throw new AppError('invalid_fields', 'channel must be release or prerelease');
  }
  return v as ReleaseChannel;
}

export function parseLang(v: string | undefined, required: boolean): 'zh' | 'en' {
  if ((v === undefined || v === '') && !required) return 'en';
  const l = (v ?? '').toLowerCase();
  if (l !== 'zh' && l !== 'en') throw new AppError('invalid_fields', 'lang must be zh or en');
  return l;
}

export function parseAction(v: string): 'update' | 'reinstall' {
  if (v !== 'update' && v !== 'reinstall') {
    throw new AppError('invalid_fields', 'action must be update or reinstall');
  }
  return v;
}
