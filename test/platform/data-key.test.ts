import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataKey } from '../../src/platform/data-key.js';
import { tempHome } from '../support/build-app.js';

describe('data key', () => {
  it('round-trips and never stores plaintext', () => {
    const key = DataKey.ephemeral();
    const sealed = key.encrypt('s3cret-value');
    expect(sealed).not.toContain('s3cret');
    expect(key.decrypt(sealed)).toBe('s3cret-value');
    expect(key.encrypt('x')).not.toBe(key.encrypt('x'));
  });

  it('creates a 0600 key file once and reuses it', () => {
    const path = join(tempHome(), 'secrets', 'data.key');
    const a = DataKey.fromFile(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(DataKey.fromFile(path).decrypt(a.encrypt('v'))).toBe('v');
  });

  it('detects tampering', () => {
    const key = DataKey.ephemeral();
    const sealed = key.encrypt('value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64');
    expect(() => key.decrypt(parts.join('.'))).toThrow();
    expect(() => DataKey.ephemeral().decrypt(sealed)).toThrow();
  });
});
