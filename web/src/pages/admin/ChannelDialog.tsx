import { useState } from 'react';
import {
  CHANNEL_TYPES,
  createChannel,
  oneOf,
  replaceChannel,
  type Channel,
  type ChannelInput,
  type ChannelType,
} from '../../api/channels';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/Feedback';
import { btnPrimary, btnSecondary, input, label } from '../../components/ui';
import { s } from '../../i18n';
import { WEBHOOK_PRESETS } from '../../../../src/protocol/webhook-presets';

const t = s.channels;
const SECRET = new Set(['secret', 'password', 'bot_token', 'api_hash']);

/** Fields of each form, in order; numbers and booleans are converted on save. */
function fieldsOf(type: ChannelType, mode: string): string[] {
  if (type === 'webhook') return ['url', 'secret'];
  if (type === 'email') return ['smtp_host', 'smtp_port', 'username', 'password', 'from', 'to'];
  return mode === 'mtproto' ? ['api_id', 'api_hash', 'phone', 'chat_id'] : ['bot_token', 'chat_id'];
}

function initialValues(c: Channel | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(c?.config ?? {})) {
    out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function buildConfig(
  type: ChannelType,
  mode: string,
  v: Record<string, string>,
  useTls: boolean,
): Record<string, unknown> {
  const get = (k: string) => (v[k] ?? '').trim();
  const chat = (raw: string) => (/^-?\d+$/.test(raw) ? Number(raw) : raw);
  if (type === 'webhook') {
    return {
      url: get('url'),
      ...(get('secret') === '' ? {} : { secret: v.secret }),
      ...(get('body_template') === '' ? {} : { body_template: v.body_template }),
      ...(get('preset') === '' ? {} : { preset: get('preset') }),
    };
  }
  if (type === 'email') {
    return {
      smtp_host: get('smtp_host'),
      smtp_port: Number(get('smtp_port')),
      username: get('username'),
      password: v.password ?? '',
      from: get('from'),
      to: get('to')
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== ''),
      use_tls: useTls,
    };
  }
  if (mode === 'mtproto') {
    return {
      mode,
      api_id: Number(get('api_id')),
      api_hash: v.api_hash ?? '',
      phone: get('phone'),
      chat_id: chat(get('chat_id')),
    };
  }
  return { mode: 'bot', bot_token: v.bot_token ?? '', chat_id: chat(get('chat_id')) };
}

/** Create or edit one channel; secrets are never shown and kept when left empty. */
export function ChannelDialog(props: {
  channel?: Channel;
  onClose: () => void;
  onSaved: () => void;
}) {
  const c = props.channel;
  const [name, setName] = useState(c?.name ?? '');
  const [type, setType] = useState<ChannelType>(
    oneOf(c?.type ?? 'webhook', CHANNEL_TYPES, 'webhook'),
  );
  const [mode, setMode] = useState(c?.config?.mode === 'mtproto' ? 'mtproto' : 'bot');
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(c));
  const [useTls, setUseTls] = useState(c?.config?.use_tls === true);
  const [enabled, setEnabled] = useState(c?.enabled ?? true);
  const stored = c?.config?.digest_sec;
  const [digest, setDigest] = useState(typeof stored === 'number' ? stored : 0);
  const digestOptions = [...new Set([0, 30, 60, 300, 900, digest])].sort((a, b) => a - b);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body: ChannelInput = {
      name,
      type,
      enabled,
      config: {
        ...buildConfig(type, mode, values, useTls),
        ...(digest > 0 ? { digest_sec: digest } : {}),
      },
      ...(c ? { revision: c.revision } : {}),
    };
    try {
      if (c) await replaceChannel(c.id, body);
      else await createChannel(body);
      props.onSaved();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog title={c ? t.editTitle(c.name) : t.createTitle} onClose={props.onClose}>
      <form className="space-y-3" onSubmit={(e) => void save(e)}>
        {error !== null && <ErrorMessage error={error} />}
        <div>
          <label htmlFor="channel-name" className={label}>
            {t.name}
          </label>
          <input
            id="channel-name"
            className={input}
            value={name}
            maxLength={64}
            required
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="channel-type" className={label}>
            {t.type}
          </label>
          <select
            id="channel-type"
            className={input}
            value={type}
            onChange={(e) => setType(e.target.value as ChannelType)}
          >
            {(['webhook', 'email', 'telegram'] as const).map((k) => (
              <option key={k} value={k}>
                {t.types[k]}
              </option>
            ))}
          </select>
        </div>
        {type === 'telegram' && (
          <div>
            <label htmlFor="channel-mode" className={label}>
              {t.mode}
            </label>
            <select
              id="channel-mode"
              className={input}
              value={mode}
              onChange={(e) => setMode(e.target.value)}
            >
              <option value="bot">{t.modeBot}</option>
              <option value="mtproto">{t.modeMtproto}</option>
            </select>
          </div>
        )}
        {type === 'webhook' && (
          <div>
            <label htmlFor="channel-preset" className={label}>
              {t.preset}
            </label>
            <select
              id="channel-preset"
              className={input}
              value={values.preset ?? ''}
              onChange={(e) => {
                const p = WEBHOOK_PRESETS.find((x) => x.id === e.target.value);
                setValues({
                  ...values,
                  preset: e.target.value,
                  ...(p ? { url: p.url, body_template: p.bodyTemplate } : { body_template: '' }),
                });
              }}
            >
              <option value="">{t.presetNone}</option>
              {WEBHOOK_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {fieldsOf(type, mode).map((f) => (
          <div key={f}>
            <label htmlFor={`channel-${f}`} className={label}>
              {t.fields[f]}
            </label>
            <input
              id={`channel-${f}`}
              className={input}
              type={
                SECRET.has(f) ? 'password' : f === 'smtp_port' || f === 'api_id' ? 'number' : 'text'
              }
              autoComplete="off"
              placeholder={SECRET.has(f) && c ? t.secretKept : undefined}
              value={values[f] ?? ''}
              onChange={(e) => setValues({ ...values, [f]: e.target.value })}
            />
          </div>
        ))}
        {type === 'webhook' && (values.preset ?? '') !== '' && (
          <div>
            <label htmlFor="channel-body-template" className={label}>
              {t.bodyTemplate}
            </label>
            <textarea
              id="channel-body-template"
              className={`${input} font-mono`}
              rows={4}
              value={values.body_template ?? ''}
              onChange={(e) => setValues({ ...values, body_template: e.target.value })}
            />
          </div>
        )}
        {type === 'email' && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={useTls} onChange={(e) => setUseTls(e.target.checked)} />
            {t.fields.use_tls}
          </label>
        )}
        <div>
          <label htmlFor="channel-digest" className={label}>
            {t.digest}
          </label>
          <select
            id="channel-digest"
            className={input}
            value={digest}
            onChange={(e) => setDigest(Number(e.target.value))}
          >
            {digestOptions.map((sec) => (
              <option key={sec} value={sec}>
                {t.digestOption(sec)}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.digestHint}</p>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          {t.enabled}
        </label>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" className={btnPrimary} disabled={busy}>
            {t.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
