import { useState } from 'react';
import {
  mtprotoCode,
  mtprotoPassword,
  mtprotoPing,
  mtprotoVerify,
  type Channel,
} from '../../api/channels';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { btnPrimary, btnSecondary, input, label } from '../../components/ui';
import { s } from '../../i18n';

const t = s.channels;

/** The Telegram user-account login: send code → verify → (two-step password) → done. */
export function MtprotoLoginDialog(props: {
  channel: Channel;
  onClose: () => void;
  onDone: () => void;
}) {
  const [step, setStep] = useState<'start' | 'code' | 'password' | 'done'>('start');
  const [loginId, setLoginId] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [ping, setPing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const id = props.channel.id;

  return (
    <Dialog title={t.loginTitle(props.channel.name)} onClose={props.onClose}>
      <div className="space-y-3">
        {error !== null && <ErrorMessage error={error} />}
        {ping !== null && <Notice>{ping}</Notice>}
        {step === 'start' && (
          <div className="flex gap-2">
            <button
              type="button"
              className={btnPrimary}
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  setLoginId((await mtprotoCode(id)).login_id);
                  setStep('code');
                })
              }
            >
              {t.sendCode}
            </button>
            <button
              type="button"
              className={btnSecondary}
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  const r = await mtprotoPing(id);
                  setPing(r.valid ? t.sessionValid : t.sessionInvalid(r.reason ?? ''));
                })
              }
            >
              {t.checkSession}
            </button>
          </div>
        )}
        {(step === 'code' || step === 'password') && (
          <form
            className="space-y-2"
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                if (step === 'code') {
                  const r = await mtprotoVerify(loginId, value);
                  setValue('');
                  if (r?.password_required) setStep('password');
                  else setStep('done');
                } else {
                  await mtprotoPassword(loginId, value);
                  setStep('done');
                }
              });
            }}
          >
            <label htmlFor="mtproto-value" className={label}>
              {step === 'code' ? t.code : t.password}
            </label>
            <input
              id="mtproto-value"
              className={input}
              type={step === 'code' ? 'text' : 'password'}
              autoComplete="one-time-code"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
            <button type="submit" className={btnPrimary} disabled={busy || value === ''}>
              {step === 'code' ? t.verify : t.submitPassword}
            </button>
          </form>
        )}
        {step === 'done' && (
          <>
            <Notice tone="ok">{t.loggedIn}</Notice>
            <button type="button" className={btnPrimary} onClick={props.onDone}>
              OK
            </button>
          </>
        )}
      </div>
    </Dialog>
  );
}
