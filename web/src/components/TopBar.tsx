import { NavLink, useNavigate } from 'react-router';
import { useState } from 'react';
import { useAuth, useSession } from '../auth/context';
import { LANGS, lang, s, setLang, type Lang } from '../i18n';
import { useResource, useResources } from '../state/resources';
import { saveTheme, type Theme } from '../theme/theme';
import { btnGhost, focusRing } from './ui';

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2.5 py-1.5 text-sm font-medium ${focusRing} ${
    isActive
      ? 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white'
      : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`;

export function TopBar(props: { theme: Theme; onTheme: (t: Theme) => void }) {
  const auth = useAuth();
  const session = useSession();
  const navigate = useNavigate();
  const brand = useResource(useResources().brand).data;
  const [busy, setBusy] = useState(false);
  const next: Theme = props.theme === 'dark' ? 'light' : 'dark';

  const signOut = async () => {
    setBusy(true);
    try {
      await session.logout();
    } finally {
      setBusy(false);
      void navigate('/');
    }
  };

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-700 dark:bg-slate-900/90">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-2 px-3 py-2">
        <NavLink to="/" className={`flex min-w-0 items-center gap-2 rounded-md ${focusRing}`}>
          {brand?.logo_url && <img src={brand.logo_url} alt="" className="h-7 w-7 shrink-0" />}
          <span className="truncate font-semibold">{brand?.topbar_text || s.app.defaultTitle}</span>
        </NavLink>
        <nav aria-label={s.nav.mainMenu} className="ml-auto flex flex-wrap items-center gap-1">
          <NavLink to="/" end className={navLink}>
            {s.nav.dashboard}
          </NavLink>
          {auth.status === 'admin' && (
            <>
              <NavLink to="/admin" className={navLink}>
                {s.nav.admin}
              </NavLink>
              <NavLink to="/sessions" className={navLink}>
                {s.nav.sessions}
              </NavLink>
            </>
          )}
          <select
            aria-label={s.fleet.language}
            title={s.fleet.language}
            value={lang}
            onChange={(e) => setLang(e.target.value as Lang)}
            className={`rounded-md border-0 bg-transparent px-1.5 py-1.5 text-sm text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 ${focusRing}`}
          >
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {s.fleet.languages[l]}
              </option>
            ))}
          </select>
          <button
            type="button"
            className={btnGhost}
            onClick={() => {
              saveTheme(next);
              props.onTheme(next);
            }}
            aria-label={next === 'dark' ? s.nav.themeToDark : s.nav.themeToLight}
            title={next === 'dark' ? s.nav.themeToDark : s.nav.themeToLight}
          >
            <span aria-hidden>{props.theme === 'dark' ? '☀' : '☾'}</span>
          </button>
          {auth.status === 'admin' ? (
            <button type="button" className={btnGhost} disabled={busy} onClick={signOut}>
              {s.nav.logout}
            </button>
          ) : (
            auth.status === 'guest' && (
              <NavLink to="/login" className={navLink}>
                {s.nav.login}
              </NavLink>
            )
          )}
        </nav>
      </div>
    </header>
  );
}
