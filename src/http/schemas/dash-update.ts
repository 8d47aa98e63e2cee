import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.js';
import { RELEASE_CHANNELS, type ReleaseChannel } from '../../updater/manifest.js';

export const UpdateQuery = Type.Object({
  channel: Type.Optional(Type.String()),
  lang: Type.Optional(Type.String()),
});

/** POST run: enums are checked by hand so every bad value answers 400 invalid_fields. */
export const RunBody = Type.Object(
  {
    action: Type.String(),
    channel: Type.String(),
    lang: Type.String(),
    target_version: Type.Optional(Type.String({ maxLength: 64 })),
    expected_current_version: Type.Optional(Type.String({ maxLength: 64 })),
    expected_install_revision: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: true },
);

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
