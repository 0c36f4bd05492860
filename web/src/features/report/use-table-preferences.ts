import { useCallback, useState } from 'react';

/** Column layout a user keeps per report across visits. */
export interface TablePreferences {
  visibility: Record<string, boolean>;
  order: string[];
  sizing: Record<string, number>;
}

const EMPTY: TablePreferences = { visibility: {}, order: [], sizing: {} };

function storageKey(email: string, reportId: string): string {
  return `thc:table:${email}:${reportId}`;
}

function read(key: string): TablePreferences {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return EMPTY;
    const parsed = JSON.parse(raw) as Partial<TablePreferences>;
    return {
      visibility: parsed.visibility && typeof parsed.visibility === 'object' ? parsed.visibility : {},
      order: Array.isArray(parsed.order) ? parsed.order.filter((id) => typeof id === 'string') : [],
      sizing: parsed.sizing && typeof parsed.sizing === 'object' ? parsed.sizing : {},
    };
  } catch {
    return EMPTY;
  }
}

export function useTablePreferences(
  email: string,
  reportId: string,
): [TablePreferences, (update: (current: TablePreferences) => TablePreferences) => void, () => void] {
  const key = storageKey(email, reportId);
  const [state, setState] = useState(() => ({ key, value: read(key) }));
  const value = state.key === key ? state.value : read(key);
  const update = useCallback(
    (fn: (current: TablePreferences) => TablePreferences) => {
      setState((s) => {
        const next = fn(s.key === key ? s.value : read(key));
        try {
          window.localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // preferences simply do not persist
        }
        return { key, value: next };
      });
    },
    [key],
  );
  const reset = useCallback(() => {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // nothing stored
    }
    setState({ key, value: EMPTY });
  }, [key]);
  return [value, update, reset];
}
