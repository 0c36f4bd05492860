/** Toasts of spec §4: a loading toast, then success/info or error; every toast auto-closes after 5 s. */
import { notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../../catalog/constants.ts';

const closeButtonProps = { 'aria-label': 'Close notification' };

export function showLoadingToast(id: string, title: string): void {
  notifications.show({
    id,
    title,
    message: '',
    loading: true,
    autoClose: false,
    withCloseButton: false,
    closeButtonProps,
  });
}

function showResultToast(color: string, title: string, options: { id?: string; message?: string }): void {
  const data = {
    title,
    message: options.message ?? '',
    color,
    loading: false,
    autoClose: TOAST_AUTO_CLOSE_MS,
    withCloseButton: true,
    closeButtonProps,
  };
  if (options.id) notifications.update({ id: options.id, ...data });
  else notifications.show(data);
}

export function showSuccessToast(title: string, options: { id?: string; message?: string } = {}): void {
  showResultToast('green', title, options);
}

export function showErrorToast(title: string, options: { id?: string; message?: string } = {}): void {
  showResultToast('red', title, options);
}
