import { describe, expect, it } from 'vitest';
import { nodeReportDecoder } from '../../src/protocol/decode-node-report.js';
import type { NodeReport } from '../../src/protocol/node-report.js';
import { MetricsReplySchema } from '../../src/protocol/node-metrics-reply.js';
import { metricsReply } from '../../src/http/presenters/node-metrics.js';
import { agentReport, windowsAgentReport } from '../support/agent-payloads.js';

/** One wire model: the tests' payloads are typed and decoded by the server's own model. */

describe('the node report wire model', () => {
  it("types and decodes the tests' agent payloads", () => {
    const decode = nodeReportDecoder();
    const payloads: NodeReport[] = [agentReport(), agentReport({ seq: 7 }), windowsAgentReport()];
    for (const p of payloads) {
      expect(decode(Buffer.from(JSON.stringify(p)))).toMatchObject({ version: p.version });
    }
  });

  it('the metrics reply presenter writes the schema fields only, in schema order', () => {
    const reply = metricsReply({
      id: '1',
      version: '0.3.0',
      url: 'https://x/a',
      sha256: 'ab',
      size: 3,
      extra: true,
    } as never);
    expect(JSON.stringify(reply)).toBe(
      '{"ok":true,"update":{"id":"1","version":"0.3.0","url":"https://x/a","sha256":"ab","size":3}}',
    );
    expect(Object.keys(MetricsReplySchema.properties)).toEqual(['ok', 'update']);
  });
});
