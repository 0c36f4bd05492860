import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { formatUrlState, parseUrlState, type UrlState } from './url-state.ts';

export type SetUrlState = (
  next: UrlState | ((current: UrlState) => UrlState),
  options?: { replace?: boolean; path?: string },
) => void;

/** The query-string state of the current location, and a setter that navigates (a history entry unless replace). */
export function useUrlState(): [UrlState, SetUrlState] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = useMemo(() => parseUrlState(search), [search]);
  const setState = useCallback<SetUrlState>(
    (next, options = {}) => {
      const resolved = typeof next === 'function' ? next(parseUrlState(window.location.search)) : next;
      const target = `${options.path ?? location}${formatUrlState(resolved)}`;
      if (target === `${window.location.pathname}${window.location.search}`) return;
      navigate(target, { replace: options.replace ?? false });
    },
    [location, navigate],
  );
  return [state, setState];
}
