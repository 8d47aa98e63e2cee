/** English strings of the node page's charts (history and uptime). */

/** Titles of the history charts (s.detail.charts). */
export const chartTitlesEn = {
  cpu: 'CPU usage',
  load: 'Load average',
  cpuTemp: 'CPU temperature',
  memUsed: 'Memory used',
  memRatio: 'Memory usage',
  processes: 'Processes',
  network: 'Network rate',
  connections: 'Connections',
  diskThroughput: 'Disk throughput',
  diskIops: 'Disk IOPS',
  diskUsed: 'Disk space used',
  diskRatio: 'Disk usage',
  diskTemp: 'Disk temperature',
  pressure: (res: string) => `Pressure stall: ${res}`,
};

export const chartsEn = {
  aggLabel: 'Values',
  aggs: {
    avg: 'Average',
    max: 'Maximum',
    both: 'Both',
  },
  /** Legend name of a series' maximum beside its average. */
  maxOf: (label: string) => `${label} (max)`,
  resetZoom: 'Reset zoom',
  zoomHint: 'Drag across a chart to zoom; double-click to reset.',
  cpuTime: 'CPU iowait and steal',
  iowait: 'iowait',
  steal: 'steal',
  uptime: 'Availability',
  uptimeWindows: {
    h24: 'Last 24 hours',
    d30: 'Last 30 days',
    d45: 'Last 45 days',
  },
};
