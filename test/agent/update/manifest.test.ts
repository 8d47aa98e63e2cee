import { describe, expect, it } from 'vitest';
import {
  decideManifest,
  extractManifest,
  validateManifest,
} from '../../../src/agent/update/manifest.js';

const good = {
  id: '0.4.0',
  version: '0.4.0',
  url: 'https://dash.example.com/deploy/linux/node_linux_amd64?upgrade_token=abc',
  sha256: 'AbCdEf'.padEnd(64, '0'),
  size: 1234,
};

const response = (status: number, contentType: string, body: string) => ({
  status,
  contentType,
  body: Buffer.from(body),
});

describe('metrics response body (spec §4.4 rule 3)', () => {
  it('reads `update` from a JSON 200, ignoring other members and a missing `ok`', () => {
    expect(
      extractManifest(
        response(200, 'application/json; charset=utf-8', JSON.stringify({ update: good, x: 1 })),
      ),
    ).toEqual(good);
  });

  it('ignores null updates, other media types, empty or invalid bodies and non-200 answers', () => {
    const body = JSON.stringify({ ok: true, update: good });
    expect(extractManifest(response(200, 'application/json', '{"ok":true,"update":null}'))).toBe(
      undefined,
    );
    expect(extractManifest(response(200, 'text/plain', body))).toBeUndefined();
    expect(extractManifest(response(200, 'application/jsonx', body))).toBeUndefined();
    expect(extractManifest(response(200, 'application/json', ''))).toBeUndefined();
    expect(extractManifest(response(200, 'application/json', '{"update":'))).toBeUndefined();
    expect(extractManifest(response(200, 'application/json', '[1]'))).toBeUndefined();
    expect(extractManifest(response(500, 'application/json', body))).toBeUndefined();
  });
});

describe('manifest validation (spec §4.4 rule 7)', () => {
  it('accepts a complete manifest, with or without id', () => {
    expect(validateManifest(good)).toEqual(good);
    const { id: _id, ...noId } = good;
    expect(validateManifest(noId)).toEqual(noId);
  });

  it.each([
    ['empty version', { version: '' }],
    ['blank version', { version: '  ' }],
    ['version "."', { version: '.' }],
    ['version ".."', { version: '..' }],
    ['version with a slash', { version: '0.4.0/../../etc' }],
    ['version with a backslash', { version: '0.4.0\\x' }],
    ['relative url', { url: '/deploy/linux/node_linux_amd64' }],
    ['ftp url', { url: 'ftp://dash.example.com/x' }],
    ['url without host', { url: 'https://' }],
    ['file url', { url: 'file:///etc/passwd' }],
    ['short sha256', { sha256: 'a'.repeat(63) }],
    ['non-hex sha256', { sha256: 'g'.repeat(64) }],
    ['zero size', { size: 0 }],
    ['negative size', { size: -5 }],
    ['fractional size', { size: 1.5 }],
    ['string size', { size: '1234' }],
    ['numeric id', { id: 7 }],
  ])('rejects %s', (_name, change) => {
    expect(typeof validateManifest({ ...good, ...change })).toBe('string');
  });

  it('rejects something that is not an object', () => {
    expect(typeof validateManifest('0.4.0')).toBe('string');
    expect(typeof validateManifest(null)).toBe('string');
  });
});

describe('manifests across targets (spec §4.4 rule 8)', () => {
  it('ignores a manifest for the version already running', () => {
    expect(decideManifest([{ raw: { ...good, version: '0.3.0' }, from: 'a' }], '0.3.0')).toEqual({
      kind: 'none',
    });
  });

  it('drops current-version manifests before comparing the others', () => {
    const d = decideManifest(
      [
        { raw: { ...good, version: '0.3.0' }, from: 'a' },
        { raw: good, from: 'b' },
      ],
      '0.3.0',
    );
    expect(d).toEqual({ kind: 'update', manifest: good, from: 'b' });
  });

  it('accepts identical manifests from several targets', () => {
    const d = decideManifest(
      [
        { raw: { ...good }, from: 'a' },
        { raw: { ...good }, from: 'b' },
      ],
      '0.3.0',
    );
    expect(d).toEqual({ kind: 'update', manifest: good, from: 'a' });
  });

  it.each(['id', 'version', 'url', 'sha256', 'size'] as const)(
    'skips the update when targets disagree on %s',
    (field) => {
      const other = { ...good, [field]: field === 'size' ? 999 : `${String(good[field])}x` };
      expect(
        decideManifest(
          [
            { raw: good, from: 'a' },
            { raw: other, from: 'b' },
          ],
          '0.3.0',
        ),
      ).toEqual({ kind: 'conflict' });
    },
  );

  it('reports an invalid manifest instead of acting on it', () => {
    const d = decideManifest([{ raw: { ...good, sha256: 'nope' }, from: 'a' }], '0.3.0');
    expect(d).toMatchObject({ kind: 'invalid' });
  });
});
