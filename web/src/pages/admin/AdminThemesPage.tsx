import { useRef, useState, type ChangeEvent } from 'react';
import {
  applyTheme,
  deleteTheme,
  fetchThemes,
  previewUrl,
  uploadTheme,
  type ThemeListItem,
} from '../../api/themes';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnDanger, btnPrimary, btnSecondary, card, muted } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { reloadActiveTheme } from '../../theme/active-theme';

const t = s.admin.themes;

function Badge(props: { children: string; tone?: 'ok' | 'warn' }) {
  const tone =
    props.tone === 'ok'
      ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100'
      : props.tone === 'warn'
        ? 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100'
        : 'bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100';
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${tone}`}>{props.children}</span>
  );
}

function ThemeCard(props: {
  item: ThemeListItem;
  busy: boolean;
  onApply: () => void;
  onDelete: () => void;
}) {
  const { item } = props;
  const usable = !item.missing && !item.broken;
  return (
    <li className={`${card} flex flex-col overflow-hidden`} data-theme-item={item.id}>
      <div className="flex aspect-[2/1] items-center justify-center bg-slate-100 dark:bg-slate-900">
        {item.has_preview ? (
          <img
            src={previewUrl(item)}
            alt={t.previewAlt(item.name)}
            className="h-full w-full object-cover"
          />
        ) : (
          <span className={`text-sm ${muted}`}>{t.noPreview}</span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="flex flex-wrap items-center gap-1.5">
          <h3 className="font-semibold break-all">{item.name}</h3>
          {item.version && <span className={`text-xs ${muted}`}>{item.version}</span>}
          {item.built_in && <Badge>{t.builtIn}</Badge>}
          {item.active && <Badge tone="ok">{t.active}</Badge>}
          {item.missing && <Badge tone="warn">{t.missing}</Badge>}
          {item.broken && <Badge tone="warn">{t.broken}</Badge>}
        </div>
        {item.author && <p className={`text-xs ${muted}`}>{t.by(item.author)}</p>}
        {item.description && <p className="text-sm break-words">{item.description}</p>}
        <div className="mt-auto flex gap-2 pt-1">
          {!item.active && usable && (
            <button
              type="button"
              className={btnPrimary}
              disabled={props.busy}
              onClick={props.onApply}
            >
              {t.apply}
            </button>
          )}
          {item.deletable && (
            <button
              type="button"
              className={btnDanger}
              disabled={props.busy}
              onClick={props.onDelete}
            >
              {s.app.delete}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

function UploadBox(props: { onUploaded: (item: ThemeListItem) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setError(null);
    setDone(null);
    setProgress(0);
    try {
      const item = await uploadTheme(file, setProgress);
      setDone(t.uploaded(item.name));
      props.onUploaded(item);
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className={`${card} space-y-2 p-4`}>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="theme-upload" className={`${btnSecondary} cursor-pointer`}>
          {t.upload}
        </label>
        <input
          ref={input}
          id="theme-upload"
          type="file"
          accept=".zip,application/zip"
          className="sr-only"
          disabled={progress !== null}
          onChange={(e) => void choose(e)}
        />
        <span className={`text-xs ${muted}`}>{t.uploadHint}</span>
      </div>
      {progress !== null && (
        <div className="flex items-center gap-2 text-sm">
          <progress className="h-2 w-48" max={1} value={progress} aria-label={t.uploading} />
          <span className="tabular-nums">{Math.round(progress * 100)}%</span>
        </div>
      )}
      {error !== null && <ErrorMessage error={error} />}
      {done && <Notice tone="ok">{done}</Notice>}
    </div>
  );
}

/** Admin → Themes: previews of the built-in and uploaded themes, upload, apply, delete. */
export function AdminThemesPage() {
  const themes = useAsync((signal) => fetchThemes(signal), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const customActive = themes.data?.some((i) => i.active) ?? false;

  /** Runs a change; `applied` is the theme id it made active, if any. */
  const act = async (work: () => Promise<void>, applied?: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      if (applied !== undefined) await reloadActiveTheme(applied !== 'default');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      themes.reload();
    }
  };

  const remove = (item: ThemeListItem) => {
    if (!window.confirm(t.deleteConfirm(item.name))) return;
    void act(() => deleteTheme(item.id));
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t.title}</h2>
        {customActive && (
          <button
            type="button"
            className={btnSecondary}
            disabled={busy}
            onClick={() => void act(() => applyTheme('default'), 'default')}
          >
            {t.useDefault}
          </button>
        )}
      </div>
      <p className={`text-sm ${muted}`}>{t.intro}</p>
      <UploadBox
        onUploaded={(item) => {
          themes.reload();
          if (item.active) void reloadActiveTheme(true);
        }}
      />
      {error !== null && <ErrorMessage error={error} />}
      {themes.loading && !themes.data && <Loading />}
      {themes.error !== null && <ErrorMessage error={themes.error} onRetry={themes.reload} />}
      {themes.data && (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t.title}>
          {themes.data.map((item) => (
            <ThemeCard
              key={item.id}
              item={item}
              busy={busy}
              onApply={() => void act(() => applyTheme(item.id), item.id)}
              onDelete={() => remove(item)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
