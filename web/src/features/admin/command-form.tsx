import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, type MantineColor, type ModalProps } from '@mantine/core';

/** What a panel hands each of its dialogs: `onClose` closes it, `onDone` follows a change the dialog made. */
export interface AdminDialogProps {
  onClose: () => void;
  onDone: () => void;
}

/** A dialog of the administration page: centred, closed by its "Close" button, Escape or a click beside it. */
export function AdminModal({
  opened,
  onClose,
  title,
  size,
  children,
}: Pick<ModalProps, 'opened' | 'onClose' | 'title' | 'size' | 'children'>) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {children}
    </Modal>
  );
}

interface CommandFormProps {
  /** Runs the form's admin command (useAdminCommand). */
  onSubmit: () => void;
  onCancel: () => void;
  /** The form's useAdminCommand: its message when no field shows it goes above the buttons. */
  command: { formError: string | undefined; isRunning: boolean };
  submitLabel: string;
  submitColor?: MantineColor;
  isSubmitDisabled?: boolean;
  gap?: 'sm' | 'md';
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * The form of an admin command: its fields, then the service's message that names no field, then Cancel and the
 * submit button (busy while the command runs). The browser's own validation is off: the service's checks are the CLI's.
 */
export function CommandForm({
  onSubmit,
  onCancel,
  command,
  submitLabel,
  submitColor,
  isSubmitDisabled,
  gap = 'sm',
  'aria-label': ariaLabel,
  children,
}: CommandFormProps) {
  return (
    <form
      noValidate
      aria-label={ariaLabel}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap={gap}>
        {children}
        {command.formError ? (
          <Alert color="red" role="alert">
            {command.formError}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color={submitColor} loading={command.isRunning} disabled={isSubmitDisabled}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
