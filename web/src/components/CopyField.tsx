import { useState } from 'react';
import { s } from '../i18n';
import { btnSecondary } from './ui';

/** Read-only text with a copy button (install commands, secrets). */
export function CopyField(props: { value: string; label: string; id: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
    } catch {
      // Clipboard access can be refused (plain HTTP); select the text for a manual copy.
      const el = document.getElementById(props.id) as HTMLTextAreaElement | null;
      el?.select();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="flex items-start gap-2">
      <textarea
        id={props.id}
        readOnly
        aria-label={props.label}
        value={props.value}
        rows={3}
        className="block w-full resize-none rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs break-all dark:border-slate-600 dark:bg-slate-900"
        onFocus={(e) => e.currentTarget.select()}
      />
      <button
        type="button"
        className={`${btnSecondary} shrink-0 whitespace-nowrap`}
        onClick={() => void copy()}
      >
        {copied ? s.app.copied : s.app.copy}
      </button>
    </div>
  );
}
