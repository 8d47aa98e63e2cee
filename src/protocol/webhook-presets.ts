/**
 * Webhook presets: one webhook channel type covers popular push services. A preset fills the
 * URL (the user completes keys and tokens) and a JSON body template whose string values may use
 * {{title}}, {{message}}, {{text}} (title and message), {{sent_at}}, {{transition}} and
 * {{dedupe_key}}. Shared by the server (docs, tests) and the web form.
 */
export interface WebhookPreset {
  id: string;
  name: string;
  url: string;
  bodyTemplate: string;
}

const tpl = (v: unknown) => JSON.stringify(v);

export const WEBHOOK_PRESETS: readonly WebhookPreset[] = [
  {
    id: 'discord',
    name: 'Discord',
    url: 'https://discord.com/api/webhooks/<id>/<token>',
    bodyTemplate: tpl({ content: '**{{title}}**\n{{message}}' }),
  },
  {
    id: 'slack',
    name: 'Slack',
    url: 'https://hooks.slack.com/services/<T>/<B>/<X>',
    bodyTemplate: tpl({ text: '*{{title}}*\n{{message}}' }),
  },
  {
    id: 'ntfy',
    name: 'ntfy',
    url: 'https://ntfy.sh/',
    bodyTemplate: tpl({ topic: '<topic>', title: '{{title}}', message: '{{message}}' }),
  },
  {
    id: 'gotify',
    name: 'Gotify',
    url: 'https://gotify.example.com/message?token=<app-token>',
    bodyTemplate: tpl({ title: '{{title}}', message: '{{message}}', priority: 5 }),
  },
  {
    id: 'bark',
    name: 'Bark',
    url: 'https://api.day.app/push',
    bodyTemplate: tpl({ device_key: '<device-key>', title: '{{title}}', body: '{{message}}' }),
  },
  {
    id: 'feishu',
    name: 'Feishu / Lark',
    url: 'https://open.feishu.cn/open-apis/bot/v2/hook/<token>',
    bodyTemplate: tpl({ msg_type: 'text', content: { text: '{{text}}' } }),
  },
  {
    id: 'dingtalk',
    name: 'DingTalk',
    url: 'https://oapi.dingtalk.com/robot/send?access_token=<token>',
    bodyTemplate: tpl({ msgtype: 'text', text: { content: '{{text}}' } }),
  },
  {
    id: 'wecom',
    name: 'WeCom',
    url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=<key>',
    bodyTemplate: tpl({ msgtype: 'text', text: { content: '{{text}}' } }),
  },
  {
    id: 'serverchan',
    name: 'ServerChan',
    url: 'https://sctapi.ftqq.com/<sendkey>.send',
    bodyTemplate: tpl({ title: '{{title}}', desp: '{{message}}' }),
  },
  {
    id: 'pushover',
    name: 'Pushover',
    url: 'https://api.pushover.net/1/messages.json',
    bodyTemplate: tpl({
      token: '<app-token>',
      user: '<user-key>',
      title: '{{title}}',
      message: '{{message}}',
    }),
  },
];

export type TemplateValues = Record<
  'title' | 'message' | 'text' | 'sent_at' | 'transition' | 'dedupe_key',
  string
>;

/**
 * Renders a body template: placeholders are replaced inside parsed JSON strings only, so a
 * value can never break out of its string or change the document's shape.
 */
export function renderBodyTemplate(template: string, values: TemplateValues): string {
  const fill = (s: string) =>
    s.replace(/\{\{(\w+)\}\}/g, (m, k: string) =>
      Object.hasOwn(values, k) ? values[k as keyof TemplateValues] : m,
    );
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fill(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return JSON.stringify(walk(JSON.parse(template) as unknown));
}
