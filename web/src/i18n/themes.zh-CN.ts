import type { themesEn } from './themes.en';

/** 管理 → 主题 */
export const themesZh: typeof themesEn = {
  title: '主题',
  intro: '主题可为 Dash 及兼容的仪表盘更换配色。上传用“dash theme pack”制作的 zip 包，然后应用。',
  upload: '上传主题（.zip）…',
  uploadHint: '最大 20 MiB：theme.json、tokens.css，可选 recipes.css、preview.png、README.md。',
  uploading: '上传进度',
  uploaded: (name: string) => `主题“${name}”已上传。`,
  apply: '应用',
  useDefault: '使用 Dash 默认外观',
  builtIn: '内置',
  active: '使用中',
  missing: '文件缺失',
  broken: '文件无效',
  noPreview: '无预览',
  previewAlt: (name: string) => `${name} 的预览`,
  by: (author: string) => `作者：${author}`,
  deleteConfirm: (name: string) => `删除主题 ${name}？`,
};
