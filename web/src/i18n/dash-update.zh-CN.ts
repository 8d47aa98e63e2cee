import type { dashUpdateEn } from './dash-update.en';

/** Dash 自更新面板（管理 → 设置） */
export const dashUpdateZh: typeof dashUpdateEn = {
  title: 'Dash 版本',
  current: '当前版本',
  latest: '最新发布',
  none: '此通道暂无发布',
  versionStatus: {
    available: '有可用更新',
    current: '已是最新',
    ahead: '比发布源更新',
    unknown: '无法比较',
  },
  notifyAvailable: (v: string) => `Dash ${v} 已发布。`,
  unavailable: '自更新不可用',
  check: '检查更新',
  update: (v: string) => `更新到 ${v}`,
  reinstall: (v: string) => `重新安装 ${v}`,
  running: (v: string, phase: string) => `正在更新到 ${v}：${phase}…`,
  completed: (v: string, at: string) => `上次更新到 ${v} 已于 ${at} 完成。Dash 将重启进入新版本。`,
  failed: (v: string, why: string) => `上次更新到 ${v} 失败：${why}`,
  notes: '发布说明',
  log: '任务日志',
  failureCodes: {
    install_changed: '检查之后安装已发生变化，请重新检查',
    recovery_required: '有一次中断的更新需要恢复：请在服务器上运行“dash update recover”',
    rolled_back: '中断的更新已回滚',
    update_running: '已有另一个更新在进行',
    update_interrupted: '更新过程中 Dash 停止了',
    update_failed: '更新被拒绝或失败，当前运行的版本未改变',
  },
};

export const dashUpdateErrorsZh: Record<string, string> = {
  dash_update_unavailable: '此安装不支持自更新。',
  dash_update_check_failed: '无法读取发布源。',
  dash_update_current: '已是此版本，请使用重新安装。',
  dash_update_failed: '无法开始更新。',
  release_notes_fetch_failed: '无法加载发布说明。',
};
