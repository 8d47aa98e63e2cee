/** Sign-in and sessions strings (kept apart from en.ts, which has a line limit). */
export const authEn = {
  login: {
    title: 'Sign in',
    password: 'Admin password',
    remember: 'Keep me signed in on this device',
    submit: 'Sign in',
    submitting: 'Signing in…',
    sessionExpired: 'Your session ended. Sign in again.',
    wrongPassword: 'Wrong password.',
  },
  sessions: {
    title: 'Sessions',
    intro: 'Devices signed in as admin.',
    id: 'Session',
    current: 'This device',
    expires: 'Expires',
    kind: 'Kind',
    sessionOnly: 'Until the browser closes',
    persistent: 'Remembered',
    revoke: 'Revoke',
    revokeAll: 'Sign out everywhere',
    confirmRevokeAll: 'Sign out every session, including this one?',
    empty: 'No sessions.',
  },
};
