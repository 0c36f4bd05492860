import { useState, type ChangeEvent } from 'react';
import { useAdminCommand } from './use-admin-command.ts';

type KeysOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D] & string;

/**
 * A form's draft of an admin command, with the command that runs it and the props that bind an input to a field of
 * the draft: its value, its change, and the service's message when it names that field.
 */
export function useCommandDraft<D extends object>(initial: () => D, onDone: () => void) {
  const [draft, setDraft] = useState(initial);
  const command = useAdminCommand(onDone);
  const set = <K extends keyof D>(key: K, value: D[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = <K extends KeysOf<D, string>>(key: K) => ({
    value: draft[key] as string,
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value as D[K]),
    error: command.fieldError(key),
  });
  const toggle = <K extends KeysOf<D, boolean>>(key: K) => ({
    checked: draft[key] as boolean,
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.checked as D[K]),
  });
  /** For a Select: `empty` when nothing is picked. */
  const choice = <K extends KeysOf<D, string>>(key: K, empty: D[K]) => ({
    value: draft[key] as string,
    onChange: (value: string | null) => set(key, (value ?? empty) as D[K]),
    error: command.fieldError(key),
  });
  return { draft, setDraft, set, command, text, toggle, choice };
}
