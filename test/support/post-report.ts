import type { TestApp } from './build-app.js';
import { agentReport } from './agent-payloads.js';

/** Posts the agent report `seq` as node `secret` through the app and returns the reply. */
export async function postAgentReport(t: Pick<TestApp, 'app'>, secret: string, seq: number) {
  return t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': secret },
    payload: JSON.stringify(agentReport({ seq })),
  });
}
