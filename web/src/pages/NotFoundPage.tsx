import { Link } from 'react-router';
import { s } from '../i18n';
import { btnPrimary } from '../components/ui';

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-lg p-8 text-center">
      <h1 className="mb-2 text-xl font-semibold">{s.app.notFoundTitle}</h1>
      <p className="mb-4 text-slate-600 dark:text-slate-300">{s.app.notFoundBody}</p>
      <Link to="/" className={btnPrimary}>
        {s.app.backToDashboard}
      </Link>
    </div>
  );
}
