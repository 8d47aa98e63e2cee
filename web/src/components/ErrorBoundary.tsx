import { Component, type ReactNode } from 'react';
import { s } from '../i18n';
import { btnPrimary } from './ui';

/** A render failure shows a message and a way out, never a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="mx-auto max-w-lg p-8 text-center">
        <h1 className="mb-2 text-xl font-semibold">{s.app.crashTitle}</h1>
        <p className="mb-4 text-slate-600 dark:text-slate-300">{s.app.crashBody}</p>
        <button type="button" className={btnPrimary} onClick={() => window.location.reload()}>
          {s.app.reload}
        </button>
      </div>
    );
  }
}
