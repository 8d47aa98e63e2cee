import { Link } from 'react-router';
import { fetchDeployInfo, type AdminNode, type DeployInfo } from '../api/admin-nodes';
import { useAsync } from '../hooks/useAsync';
import { s } from '../i18n';
import { installCommand } from '../lib/node-form';
import { CopyField } from './CopyField';
import { card, focusRing } from './ui';

/**
 * Admin-only cards for nodes that exist but never reported: what to run on the server so the
 * card fills in. The Linux command is shown; the node's settings have the other platforms.
 * Mount it only when there are such nodes (it reads the admin-only deploy info).
 */
export function WaitingNodes(props: { nodes: AdminNode[] }) {
  const deploy = useAsync<DeployInfo>((signal) => fetchDeployInfo(signal), []);
  const prefix = deploy.data?.scripts.linux.command_prefix;
  return (
    <section aria-label={s.fleet.waitingTitle} className="space-y-2">
      <h2 className="text-sm font-medium text-slate-600 dark:text-slate-300">
        {s.fleet.waitingSection(props.nodes.length)}
      </h2>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(20rem,1fr))] gap-3">
        {props.nodes.map((n) => (
          <article
            key={n.id}
            aria-label={n.name}
            data-waiting-node={n.id}
            className={`${card} flex flex-col gap-2 border-dashed p-3`}
          >
            <header className="flex items-start gap-2">
              <span
                aria-hidden
                className="mt-1.5 h-2.5 w-2.5 shrink-0 animate-pulse rounded-full bg-sky-400"
              />
              <h3 className="min-w-0 flex-1 truncate font-semibold">{n.name}</h3>
              <span className="shrink-0 rounded bg-sky-100 px-1.5 py-0.5 text-[11px] font-medium text-sky-800 dark:bg-sky-900 dark:text-sky-100">
                {s.fleet.waitingTitle}
              </span>
            </header>
            <p className="text-xs text-slate-500 dark:text-slate-400">{s.fleet.waitingHint}</p>
            {prefix !== undefined && (
              <CopyField
                id={`install-${n.id}`}
                label={s.admin.nodes.install}
                value={installCommand(prefix, n.secret)}
              />
            )}
            <Link
              to="/admin/nodes"
              className={`self-start text-xs text-sky-700 hover:underline dark:text-sky-300 ${focusRing}`}
            >
              {s.fleet.waitingEdit}
            </Link>
          </article>
        ))}
      </div>
    </section>
  );
}
