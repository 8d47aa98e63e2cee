import type { chartTitlesEn, chartsEn } from './charts.en';

/** 历史图表标题（s.detail.charts） */
export const chartTitlesZh: typeof chartTitlesEn = {
  cpu: 'CPU 使用率',
  load: '平均负载',
  cpuTemp: 'CPU 温度',
  memUsed: '已用内存',
  memRatio: '内存使用率',
  processes: '进程数',
  network: '网络速率',
  connections: '连接数',
  diskThroughput: '磁盘吞吐',
  diskIops: '磁盘 IOPS',
  diskUsed: '已用磁盘空间',
  diskRatio: '磁盘使用率',
  diskTemp: '磁盘温度',
  pressure: (res: string) => `压力阻塞：${res}`,
};

/** 节点页图表（历史与可用性） */
export const chartsZh: typeof chartsEn = {
  aggLabel: '数值',
  aggs: {
    avg: '平均值',
    max: '最大值',
    both: '两者',
  },
  maxOf: (label: string) => `${label}（最大）`,
  resetZoom: '重置缩放',
  zoomHint: '在图表上拖动以缩放，双击复原。',
  cpuTime: 'CPU iowait 与 steal',
  iowait: 'iowait',
  steal: 'steal',
  uptime: '可用性',
  uptimeWindows: {
    h24: '最近 24 小时',
    d30: '最近 30 天',
    d45: '最近 45 天',
  },
};
