import { NavLink, Outlet } from 'react-router';
import { focusRing } from '../../components/ui';
import { s } from '../../i18n';

const tab = ({ isActive }: { isActive: boolean }) =>
  `border-b-2 px-3 py-2 text-sm font-medium ${focusRing} ${
    isActive
      ? 'border-sky-600 text-sky-700 dark:text-sky-300'
      : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
  }`;

export function AdminLayout() {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{s.admin.title}</h1>
      <nav
        aria-label={s.nav.adminMenu}
        className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700"
      >
        <NavLink to="/admin/nodes" className={tab}>
          {s.nav.nodes}
        </NavLink>
        <NavLink to="/admin/groups" className={tab}>
          {s.nav.groups}
        </NavLink>
        <NavLink to="/admin/settings" className={tab}>
          {s.nav.settings}
        </NavLink>
        <NavLink to="/admin/traffic" className={tab}>
          {s.traffic.admin.tab}
        </NavLink>
        <NavLink to="/admin/alerts" className={tab}>
          {s.alerts.rulesTab}
        </NavLink>
        <NavLink to="/admin/alert-events" className={tab}>
          {s.alerts.eventsTab}
        </NavLink>
        <NavLink to="/admin/themes" className={tab}>
          {s.nav.themes}
        </NavLink>
        <NavLink to="/admin/channels" className={tab}>
          {s.channels.tab}
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
