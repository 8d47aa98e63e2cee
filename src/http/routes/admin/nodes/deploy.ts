import { defineRoute } from '../../../route-def.js';
import { deployInfo, type InstallScript } from '../../../../domain/nodes/deploy-info.js';
import { installAddress, requestBaseUrl } from '../../../../domain/nodes/install-address.js';
import { publishedAgents } from '../../../../deploy/published-agents.js';
import type { AppDeps } from '../../../../deps.js';
import { DeployInfoSchema } from '../../../../protocol/api/admin-nodes.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'agentAssets' | 'config'>;

const present = (s: InstallScript) => ({ url: s.url, command_prefix: s.commandPrefix });

/**
 * GET /api/admin/nodes/deploy — install script URLs and commands (the admin appends the secret),
 * the address they use (the browser's own when no public URL is configured, with a warning for
 * a loopback one) and which standalone agent builds are published.
 */
export function adminNodesDeployRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/nodes/deploy',
    auth: 'admin',
    schema: { response: { 200: DeployInfoSchema } },
    handler: async (req) => {
      const address = installAddress({
        publicUrl: deps.config.publicUrl,
        configured: deps.config.publicUrlConfigured ?? true,
        requestBase: requestBaseUrl(req.protocol, req.host),
      });
      const info = deployInfo(address.baseUrl);
      return {
        scripts: {
          linux: present(info.linux),
          macos: present(info.macos),
          windows: present(info.windows),
        },
        address: {
          url: address.baseUrl,
          source: address.source,
          ...(address.warning ? { warning: address.warning } : {}),
        },
        agents: await publishedAgents(deps.agentAssets),
        add_agents_command: 'make agents',
      };
    },
  });
}
