import type { chartsEn } from './charts.en';

/** 节点页图表（历史与可用性）的简体中文文字，键与 charts.en.ts 一致。 */
export const chartsZh: typeof chartsEn = {
  aggLabel: '取值',
  aggs: {
    avg: '平均值',
    max: '最大值',
    both: '两者',
  },
  maxOf: (label: string) => `${label}（最大）`,
  resetZoom: '重置缩放',
  zoomHint: '在图表上拖动以缩放，双击恢复。',
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
