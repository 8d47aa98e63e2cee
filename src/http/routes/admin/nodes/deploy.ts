import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { deployInfo, type InstallScript } from '../../../../domain/nodes/deploy-info.js';
import type { AppDeps } from '../../../../deps.js';

const Script = Type.Object({ url: Type.String(), command_prefix: Type.String() });
const DeployResponse = Type.Object({
  scripts: Type.Object({ linux: Script, macos: Script, windows: Script }),
});

const present = (s: InstallScript) => ({ url: s.url, command_prefix: s.commandPrefix });

/** GET /api/admin/nodes/deploy — install script URLs and commands; the admin appends the secret. */
export function adminNodesDeployRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/nodes/deploy',
    auth: 'admin',
    schema: { response: { 200: DeployResponse } },
    handler: () => {
      const info = deployInfo(deps.config.publicUrl);
      return {
        scripts: {
          linux: present(info.linux),
          macos: present(info.macos),
          windows: present(info.windows),
        },
      };
    },
  });
}
