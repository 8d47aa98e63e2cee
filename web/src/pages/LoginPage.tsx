import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuth, useSession } from '../auth/context';
import { ErrorMessage, Notice } from '../components/Feedback';
import { btnPrimary, card, input, label } from '../components/ui';
import { s } from '../i18n';
import { hasCode } from '../lib/errors';

/** Only same-app paths are followed after sign-in. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const session = useSession();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (auth.status === 'admin' && !busy) return <Navigate to={next} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await session.login(password, remember ? 'persistent' : 'session');
      void navigate(next, { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto mt-8 max-w-sm">
      <form className={`${card} space-y-4 p-5`} onSubmit={submit} noValidate>
        <h1 className="text-xl font-semibold">{s.login.title}</h1>
        {auth.expired && <Notice tone="warn">{s.login.sessionExpired}</Notice>}
        {error !== null &&
          (hasCode(error, 'unauthorized') ? (
            <p role="alert" className="text-sm text-rose-600">
              {s.login.wrongPassword}
            </p>
          ) : (
            <ErrorMessage error={error} />
          ))}
        <div>
          <label htmlFor="password" className={label}>
            {s.login.password}
          </label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            className={input}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
            className="h-4 w-4"
          />
          {s.login.remember}
        </label>
        <button type="submit" className={`${btnPrimary} w-full`} disabled={busy || !password}>
          {busy ? s.login.submitting : s.login.submit}
        </button>
      </form>
    </div>
  );
}
