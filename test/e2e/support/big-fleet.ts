import { projectView, type Json, type Node } from './fake-projection.js';
import { metricsReport, SEED_NODES, staticPayload } from './payloads.js';

/**
 * Front views of `count` nodes, each call a new poll with fresh reports, built with the same
 * projection as the stand-in backend (used to load the dashboard through page.route).
 */
export function bigFleet(count: number): () => unknown[] {
  let tick = 0;
  const nodes: Node[] = Array.from({ length: count }, (_, i) => {
    const spec = SEED_NODES[i % SEED_NODES.length]!;
    return {
      id: 10_000 + i,
      name: `node-${String(i + 1).padStart(4, '0')}`,
      secret: '',
      tags: [...spec.tags, `rack-${i % 40}`],
      guest: true,
      groups: [1],
      order: count - i,
      cycle: {},
      direction: 'default',
      p95: false,
      static: staticPayload(spec, i % 5, new Date()),
    };
  });
  return () => {
    tick++;
    const received = new Date().toISOString();
    return nodes.map((n, i) => {
      const spec = SEED_NODES[i % SEED_NODES.length]!;
      const report = metricsReport(spec, i % 5, tick + i, new Date());
      n.report = { metrics: report.metrics as Json, hostname: n.name, received };
      return projectView(n);
    });
  };
}

/** Records the duration of every main-thread task over 50 ms (Long Tasks API). */
export const LONG_TASK_PROBE = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
`;
