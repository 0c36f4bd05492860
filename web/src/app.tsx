import { useEffect } from 'react';
import { Redirect, useLocation } from 'wouter';
import { isInternalUser, useSessionStore } from './stores/session-store.ts';
import { LoginPage } from './features/login/login-page.tsx';
import { Dashboard } from './features/layout/dashboard.tsx';
import { FullPageLoader } from './components/full-page-loader.tsx';
import { FetchErrorPanel } from './components/fetch-error-panel.tsx';
import { NotFoundPage } from './features/layout/not-found-page.tsx';
import { SECTION_PATH, SET_PASSWORD_PATH, isStaffPath } from './lib/routes.ts';
import { SetPasswordPage } from './features/admin/set-password-page.tsx';

export function App() {
  const status = useSessionStore((s) => s.status);
  const user = useSessionStore((s) => s.user);
  const load = useSessionStore((s) => s.load);
  const [location] = useLocation();

  useEffect(() => {
    if (useSessionStore.getState().status === 'idle') void load();
  }, [load]);

  // A one-time password link works signed in or not.
  if (location === SET_PASSWORD_PATH) return <SetPasswordPage />;
  if (status === 'idle' || status === 'pending') return <FullPageLoader label="Loading your session" />;
  if (status === 'error') {
    return (
      <main style={{ maxWidth: 560, margin: '15vh auto', padding: 16 }}>
        <FetchErrorPanel area="session" onRetry={() => void load()} />
      </main>
    );
  }
  if (status === 'signed-out') return <LoginPage />;
  if (location === '/') return <Redirect to={`${SECTION_PATH}${window.location.search}`} replace />;
  if (location === SECTION_PATH || location.startsWith(`${SECTION_PATH}/`)) return <Dashboard />;
  // Clients are told nothing is there, as the service answers them 404 for every crawl-runs and data-sources call.
  if (isStaffPath(location) && isInternalUser(user)) return <Dashboard />;
  return <NotFoundPage />;
}
