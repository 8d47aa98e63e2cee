import { useEffect, useRef, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SessionProvider, useAuth } from './auth/context';
import type { SessionStore } from './auth/session';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Loading } from './components/Feedback';
import { TopBar } from './components/TopBar';
import { s } from './i18n';
import { DashboardPage } from './pages/DashboardPage';
import { LoginPage } from './pages/LoginPage';
import { NodeDetailPage } from './pages/NodeDetailPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SessionsPage } from './pages/SessionsPage';
import { AdminLayout } from './pages/admin/AdminLayout';
import { AdminGroupsPage } from './pages/admin/AdminGroupsPage';
import { AdminNodesPage } from './pages/admin/AdminNodesPage';
import { AdminSettingsPage } from './pages/admin/AdminSettingsPage';
import { AdminTrafficPage } from './pages/admin/AdminTrafficPage';
import { TrafficPage } from './pages/TrafficPage';
import { AdminAlertsPage } from './pages/admin/AdminAlertsPage';
import { AdminAlertEventsPage } from './pages/admin/AdminAlertEventsPage';
import { AdminThemesPage } from './pages/admin/AdminThemesPage';
import { AdminChannelsPage } from './pages/admin/AdminChannelsPage';
import { ResourcesProvider, reloadForCaller, useResource, type Resources } from './state/resources';
import { initialTheme, type Theme } from './theme/theme';

function RequireAdmin(props: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'checking') return <Loading />;
  if (auth.status !== 'admin') {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  return props.children;
}

/** Front reads depend on who asks: refetch them whenever the caller changes. */
function CallerWatcher(props: { resources: Resources }) {
  const { status } = useAuth();
  const last = useRef(status);
  useEffect(() => {
    if (last.current === status) return;
    const was = last.current;
    last.current = status;
    if (was !== 'checking' || status === 'admin') reloadForCaller(props.resources);
  }, [status, props.resources]);
  return null;
}

function BrandTitle(props: { resources: Resources }) {
  const brand = useResource(props.resources.brand).data;
  useEffect(() => {
    document.title = brand?.page_title || s.app.defaultTitle;
  }, [brand?.page_title]);
  return null;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<DashboardPage />} />
      <Route path="/nodes/:id" element={<NodeDetailPage />} />
      <Route path="/nodes/:id/traffic" element={<TrafficPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route
        path="/sessions"
        element={
          <RequireAdmin>
            <SessionsPage />
          </RequireAdmin>
        }
      />
      <Route
        path="/admin"
        element={
          <RequireAdmin>
            <AdminLayout />
          </RequireAdmin>
        }
      >
        <Route index element={<Navigate to="nodes" replace />} />
        <Route path="nodes" element={<AdminNodesPage />} />
        <Route path="groups" element={<AdminGroupsPage />} />
        <Route path="settings" element={<AdminSettingsPage />} />
        <Route path="traffic" element={<AdminTrafficPage />} />
        <Route path="alerts" element={<AdminAlertsPage />} />
        <Route path="alert-events" element={<AdminAlertEventsPage />} />
        <Route path="themes" element={<AdminThemesPage />} />
        <Route path="channels" element={<AdminChannelsPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

export function AppShell(props: { session: SessionStore; resources: Resources }) {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  return (
    <SessionProvider value={props.session}>
      <ResourcesProvider value={props.resources}>
        <CallerWatcher resources={props.resources} />
        <BrandTitle resources={props.resources} />
        <a
          href="#content"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          {s.app.skipToContent}
        </a>
        <TopBar theme={theme} onTheme={setTheme} />
        <main id="content" className="mx-auto max-w-screen-2xl px-3 py-4">
          <ErrorBoundary>
            <AppRoutes />
          </ErrorBoundary>
        </main>
      </ResourcesProvider>
    </SessionProvider>
  );
}

export function App(props: { session: SessionStore; resources: Resources }) {
  return (
    <ErrorBoundary>
      <BrowserRouter>
        <AppShell session={props.session} resources={props.resources} />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
