import { agentBinaryProblem } from './agent-binaries.js';
import { AGENT_TARGETS } from './agent-targets.js';
import type { AgentAssetFiles } from './asset-files.js';

export interface PublishedAgent {
  id: string;
  asset: string;
  os: string;
  arch: string;
  libc?: string;
  published: boolean;
  /** Why a file that is there is not usable (wrong header, e.g. an old JS bundle). */
  problem?: string;
}

/** Which standalone agent builds $DASH_HOME/deploy holds, and whether each is the right kind. */
export async function publishedAgents(files: AgentAssetFiles): Promise<PublishedAgent[]> {
  return Promise.all(
    AGENT_TARGETS.map(async (t) => {
      const file = await files.locate(t.asset);
      const problem = file ? agentBinaryProblem(t, file.path) : null;
      return {
        id: t.id,
        asset: t.asset,
        os: t.os,
        arch: t.arch,
        ...(t.libc ? { libc: t.libc } : {}),
        published: file !== null && problem === null,
        ...(file && problem ? { problem } : {}),
      };
    }),
  );
}
