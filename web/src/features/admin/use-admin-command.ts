import { useCallback, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { runAdminCommand, type AdminCommand } from '../../api/admin.ts';
import { showSuccessToast } from '../../lib/toast.ts';

/** The service's refusal: its message, and the field it is about when it named one. */
export interface CommandError {
  message: string;
  field?: string;
}

/**
 * Runs admin commands from a form: the service validates them exactly as the CLI (one message naming the field),
 * which the form shows beside that field or above its buttons; a success toasts the command's own answer.
 */
export function useAdminCommand(onDone: () => void) {
  const [isRunning, setRunning] = useState(false);
  const [error, setError] = useState<CommandError | null>(null);
  const run = useCallback(
    async (command: AdminCommand): Promise<boolean> => {
      setRunning(true);
      setError(null);
      try {
        const output = await runAdminCommand(command);
        showSuccessToast('Saved', { message: output });
        onDone();
        return true;
      } catch (caught) {
        const field = caught instanceof ApiError ? caught.body?.field : undefined;
        setError({
          message: caught instanceof Error ? caught.message : String(caught),
          field: typeof field === 'string' ? field : undefined,
        });
        return false;
      } finally {
        setRunning(false);
      }
    },
    [onDone],
  );
  const fieldError = (field: string): string | undefined => (error?.field === field ? error.message : undefined);
  /** The message when no field shows it. */
  const formError = error && !error.field ? error.message : undefined;
  return { run, isRunning, error, setError, fieldError, formError };
}
