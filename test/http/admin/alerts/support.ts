import type { TestApp } from '../../../support/build-app.js';
import { agentReport } from '../../../support/agent-payloads.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export function client(t: TestApp, admin: Record<string, string>) {
  return (method: Method, url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: payload === undefined ? admin : { ...admin, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
}

/** Posts a metrics report with the given CPU usage ratio, as the node's agent would. */
export async function reportCpu(t: TestApp, secret: string, usageRatio: number): Promise<void> {
  const body = agentReport();
  body.metrics.cpu.usage_ratio = usageRatio;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': secret },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 200) throw new Error(`report failed: ${res.statusCode} ${res.body}`);
  await t.deps.alerts.flush();
}

export const CPU_RULE = {
  name: 'CPU high',
  metric: 'cpu.usage_ratio',
  operator: '>',
  threshold: 0.8,
  duration_sec: 0,
};

export async function resetAlerts(t: TestApp): Promise<void> {
  await t.sql.exec(`
    DELETE FROM alert_transitions;
    DELETE FROM alert_events;
    DELETE FROM alert_mounts;
    DELETE FROM alert_rules;
    DELETE FROM alert_silences;
  `);
  await t.sql.resetIds(['alert_rules', 'alert_events', 'alert_transitions', 'alert_silences']);
}
