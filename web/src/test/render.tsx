import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppShell } from '../App';
import { SessionStore } from '../auth/session';
import { createResources } from '../state/resources';

/** The whole app at `path`, as an admin (a CSRF cookie and a working refresh) or a guest. */
export async function renderApp(path: string, opts: { admin?: boolean } = {}) {
  if (opts.admin) document.cookie = 'csrf=test-csrf; path=/';
  const session = new SessionStore();
  await session.init();
  const resources = createResources();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <AppShell session={session} resources={resources} />
    </MemoryRouter>,
  );
  return { ...view, session, resources };
}

/** The refresh answer a signed-in admin gets. */
export const adminGrant = {
  status: 200,
  body: {
    access_token: 'access-1',
    expires_at: '2099-01-01T00:00:00Z',
    csrf_token: 'test-csrf',
  },
};
