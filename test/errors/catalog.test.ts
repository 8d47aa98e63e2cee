import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors/codes.js';
import { renderErrorsDoc } from '../../src/errors/doc.js';

/** Every code and status of spec §7. */
const SPEC_CODES: Record<string, number> = {
  not_implemented: 501,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  invalid_json: 400,
  invalid_persistence: 400,
  rate_limited: 429,
  invalid_request: 400,
  invalid_metrics: 422,
  invalid_static_payload: 422,
  service_unavailable: 503,
  forbidden: 403,
  invalid_secret: 400,
  duplicate_secret: 409,
  billing_cycle_is_per_node: 400,
  traffic_daily_requires_billing: 409,
  traffic_rebuild_requires_billing: 409,
  traffic_rebuild_running: 409,
  traffic_rebuild_unavailable: 503,
  node_upgrade_unsupported: 409,
  node_upgrade_grant_error: 503,
  login_state_error: 503,
  channel_changed: 409,
  invalid_fields: 400,
};

describe('error catalog', () => {
  it('holds every spec code with the spec status', () => {
    for (const [code, status] of Object.entries(SPEC_CODES)) {
      expect(ERROR_CODES, code).toHaveProperty(code);
      expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code).toBe(status);
    }
  });

  it('uses snake_case codes, valid statuses and non-empty messages', () => {
    for (const [code, { status, message }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(message.length).toBeGreaterThan(0);
    }
  });

  it('is documented: docs/errors.md is generated from the catalog and current', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderErrorsDoc());
  });
});
