import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthState, SessionStore } from './session';

const SessionContext = createContext<SessionStore | null>(null);

export function SessionProvider(props: { value: SessionStore; children: ReactNode }) {
  return <SessionContext value={props.value}>{props.children}</SessionContext>;
}

export function useSession(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('SessionProvider missing');
  return store;
}

export function useAuth(): AuthState {
  const store = useSession();
  return useSyncExternalStore(store.subscribe, store.getState);
}
