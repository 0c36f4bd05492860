import { create } from 'zustand';
import { ApiError, setCsrfToken, setUnauthorisedHandler } from '../api/client.ts';
import * as authApi from '../api/auth.ts';
import type { SessionUser } from '../api/types.ts';
import { errorText } from '../lib/load-state.ts';

/**
 * Set while this browser holds a session, so a signed-out visit shows the login form at once instead of probing
 * /api/auth/me into a 401. The session cookie itself is httpOnly.
 */
const SESSION_HINT_KEY = 'thc:has-session';

function setSessionHint(isSignedIn: boolean): void {
  try {
    if (isSignedIn) window.localStorage.setItem(SESSION_HINT_KEY, '1');
    else window.localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // without storage every visit probes the session
  }
}

function hasSessionHint(): boolean {
  try {
    return window.localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return true;
  }
}

export type SessionStatus = 'idle' | 'pending' | 'signed-in' | 'signed-out' | 'error';

interface SessionStore {
  status: SessionStatus;
  user: SessionUser | null;
  error: string | null;
  /** Probes GET /api/auth/me once at start. */
  load: () => Promise<void>;
  login: (email: string, password: string) => Promise<void>;
  logout: () => Promise<void>;
  /** The service answered 401 to an ordinary call: the session ended elsewhere. */
  expire: () => void;
}

export const useSessionStore = create<SessionStore>()((set, get) => ({
  status: 'idle',
  user: null,
  error: null,

  load: async () => {
    if (get().status === 'pending') return;
    if (!hasSessionHint()) {
      set({ status: 'signed-out', user: null, error: null });
      return;
    }
    set({ status: 'pending', error: null });
    try {
      const answer = await authApi.fetchSession();
      setCsrfToken(answer.csrfToken);
      set({ status: 'signed-in', user: answer.user });
    } catch (error) {
      setCsrfToken(undefined);
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        setSessionHint(false);
        set({ status: 'signed-out', user: null });
      } else {
        set({ status: 'error', user: null, error: errorText(error) });
      }
    }
  },

  login: async (email, password) => {
    const answer = await authApi.login(email, password);
    setCsrfToken(answer.csrfToken);
    setSessionHint(true);
    set({ status: 'signed-in', user: answer.user, error: null });
    // /me also carries the user's website ids; fetch it so the session matches a reload.
    try {
      const me = await authApi.fetchSession();
      setCsrfToken(me.csrfToken);
      set({ user: me.user });
    } catch {
      // the login answer is enough to continue
    }
  },

  logout: async () => {
    try {
      await authApi.logout();
    } finally {
      setCsrfToken(undefined);
      setSessionHint(false);
      set({ status: 'signed-out', user: null, error: null });
    }
  },

  expire: () => {
    setCsrfToken(undefined);
    setSessionHint(false);
    set({ status: 'signed-out', user: null });
  },
}));

setUnauthorisedHandler(() => useSessionStore.getState().expire());

export function isInternalUser(user: SessionUser | null): boolean {
  return user !== null && user.role !== 'CLIENT';
}
