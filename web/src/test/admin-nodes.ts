import type { AdminNode } from '../api/admin-nodes';
import { adminGroups, adminNode } from './fixtures/nodes';

export const deploy = {
  scripts: {
    linux: {
      url: 'http://dash.test/deploy/linux/install.sh',
      command_prefix:
        'curl -fsSL http://dash.test/deploy/linux/install.sh | sudo bash -s -- dash.test ',
    },
    macos: {
      url: 'http://dash.test/deploy/macos/install.sh',
      command_prefix:
        'curl -fsSL http://dash.test/deploy/macos/install.sh | sudo bash -s -- dash.test ',
    },
    windows: {
      url: 'http://dash.test/deploy/windows/install.ps1',
      command_prefix:
        'iwr -UseBasicParsing http://dash.test/deploy/windows/install.ps1 -OutFile install.ps1; powershell -ExecutionPolicy Bypass -File .\\install.ps1 dash.test ',
    },
  },
};

/** An admin node store answering like Dash: list, create, patch, delete, order. */
export function nodeStore(initial: AdminNode[]) {
  let nodes = [...initial];
  return {
    get nodes() {
      return nodes;
    },
    routes: {
      'GET /api/admin/nodes/': () => ({ body: nodes }),
      'GET /api/admin/nodes/deploy': { body: deploy },
      'GET /api/admin/groups/': { body: adminGroups() },
      'POST /api/admin/nodes/': () => {
        const id = Math.max(0, ...nodes.map((n) => n.id)) + 1;
        nodes = [
          adminNode(id, 'Untitled', {
            secret: 'NewSecret1234567',
            version: { version: 'unknown', is_outdated: true, supports_auto_update: false },
          }),
          ...nodes,
        ];
        return { status: 204 };
      },
      'PATCH /api/admin/nodes/1': (c: { body: unknown }) => {
        nodes = nodes.map((n) => (n.id === 1 ? { ...n, ...(c.body as Partial<AdminNode>) } : n));
        return { status: 204 };
      },
      'PATCH /api/admin/nodes/4': (c: { body: unknown }) => {
        nodes = nodes.map((n) => (n.id === 4 ? { ...n, ...(c.body as Partial<AdminNode>) } : n));
        return { status: 204 };
      },
      'DELETE /api/admin/nodes/2': () => {
        nodes = nodes.filter((n) => n.id !== 2);
        return { status: 204 };
      },
      'PUT /api/admin/nodes/display-order': { status: 204 },
      'POST /api/admin/nodes/1/upgrade': { status: 204 },
    },
  };
}
