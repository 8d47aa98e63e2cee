/** Dashboard fleet strings: status filter, overview, table view, waiting nodes (issue 18). */
export const fleetEn = {
  statusLabel: 'Status',
  status: {
    all: 'All',
    online: 'Online',
    offline: 'Offline',
    alerting: 'Alerting',
  },
  sortOffline: 'Offline first',
  overview: 'Fleet overview',
  total: 'Total',
  traffic: 'Traffic ↓ / ↑',
  rate: 'Now ↓ / ↑',
  showOnly: (what: string) => `Show only: ${what}`,
  showAll: 'Show all nodes',
  lastSeen: (ago: string) => `Last seen ${ago} ago`,
  lastSeenAt: (time: string) => `Last report at ${time}`,
  viewLabel: 'View',
  viewCards: 'Cards',
  viewTable: 'Table',
  columns: 'Columns',
  tableCaption: 'Nodes',
  col: {
    status: 'Status',
    name: 'Name',
    os: 'System',
    cpu: 'CPU',
    memory: 'Memory',
    disk: 'Disk',
    network: 'Network ↓ / ↑',
    traffic: 'Traffic ↓ / ↑',
    load: 'Load',
    uptime: 'Uptime',
    temperature: 'Temperature',
    lastSeen: 'Last report',
    alerts: 'Alerts',
  },
  waitingTitle: 'Waiting for the first report',
  waitingSection: (n: number) =>
    n === 1
      ? '1 node is waiting for its first report'
      : `${n} nodes are waiting for their first report`,
  waitingHint:
    'Run this on the server to install the agent. The card fills in with its first report.',
  waitingEdit: 'Node settings',
  firstRunLocal:
    'Waiting for the first report from the agent on this host. It normally arrives within a few seconds.',
  language: 'Language',
  languages: { en: 'English', 'zh-CN': '简体中文' },
};
