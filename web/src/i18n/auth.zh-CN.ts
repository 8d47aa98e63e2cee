import type { authEn } from './auth.en';

/** 登录与会话 */
export const authZh: typeof authEn = {
  login: {
    title: '登录',
    password: '管理员密码',
    remember: '在此设备上保持登录',
    submit: '登录',
    submitting: '正在登录…',
    sessionExpired: '会话已结束，请重新登录。',
    wrongPassword: '密码错误。',
  },
  sessions: {
    title: '会话',
    intro: '以管理员身份登录的设备。',
    id: '会话',
    current: '当前设备',
    expires: '过期时间',
    kind: '类型',
    sessionOnly: '关闭浏览器即失效',
    persistent: '保持登录',
    revoke: '撤销',
    revokeAll: '退出所有设备',
    confirmRevokeAll: '退出所有会话，包括当前会话？',
    empty: '没有会话。',
  },
};
