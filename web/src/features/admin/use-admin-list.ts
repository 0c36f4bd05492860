import { useCallback, useEffect, useState } from 'react';
import { errorText, type LoadState } from '../../lib/load-state.ts';
import { isAbortError } from '../../api/client.ts';

/** Loads one administration list, again on `reload()` (what is shown stays until the new list arrives). */
export function useAdminList<T>(fetch: (signal: AbortSignal) => Promise<T>) {
  const [state, setState] = useState<LoadState<T>>({ status: 'pending' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetch(controller.signal).then(
      (data) => setState({ status: 'success', data }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ status: 'error', error: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [fetch, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const data = state.status === 'success' || state.status === 'pending' ? state.data : undefined;
  return { state, data, reload };
}
