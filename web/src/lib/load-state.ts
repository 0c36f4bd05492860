/** Data-load state of spec §4: idle, pending, success, error. */
export type LoadState<T> =
  | { status: 'idle' }
  | { status: 'pending'; data?: T }
  | { status: 'success'; data: T }
  | { status: 'error'; error: string };

export const IDLE: LoadState<never> = { status: 'idle' };

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
