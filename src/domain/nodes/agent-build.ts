/** What a node's agent said about itself in its User-Agent (see src/agent/build-info.ts). */
export interface AgentBuild {
  /** True for Dash's own agent (`nodeagent…`), false for anything else (Ithiltir-node, Go). */
  dash: boolean;
  /** Dash agent only: `node` = the JS build started with node, `standalone` = the executable. */
  runtime?: 'node' | 'standalone';
  libc?: 'glibc' | 'musl';
}

/**
 * Reads `nodeagent/<version> (<os>; <arch>[; <libc>]; <runtime>)`. Dash agents before the
 * standalone build sent a bare `nodeagent`: they are the JS build run by node.
 */
export function parseAgentUserAgent(userAgent: string | undefined): AgentBuild {
  const ua = (userAgent ?? '').trim();
  if (ua === 'nodeagent') return { dash: true, runtime: 'node' };
  const m = /^nodeagent\/\S+ \(([^)]*)\)/.exec(ua);
  if (!m) return { dash: false };
  const parts = m[1]!.split(';').map((p) => p.trim());
  const runtime = parts.includes('standalone') ? 'standalone' : 'node';
  const libc = parts.includes('musl') ? 'musl' : parts.includes('glibc') ? 'glibc' : undefined;
  return { dash: true, runtime, ...(libc ? { libc } : {}) };
}

/**
 * The User-Agent each node last reported with, in memory (a report every few seconds refills it
 * after a restart). Recording is one map lookup per report; parsing waits for an upgrade request.
 */
export class AgentBuilds {
  private readonly seen = new Map<number, string>();

  observe(nodeId: number, userAgent: string | undefined): void {
    const ua = userAgent ?? '';
    if (this.seen.get(nodeId) !== ua) this.seen.set(nodeId, ua);
  }

  /** Undefined when the node has not reported since Dash started. */
  get(nodeId: number): AgentBuild | undefined {
    const ua = this.seen.get(nodeId);
    return ua === undefined ? undefined : parseAgentUserAgent(ua);
  }

  forget(nodeId: number): void {
    this.seen.delete(nodeId);
  }
}
