import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { AdminUser } from '../../api/admin.ts';
import { useAdminCommand } from './use-admin-command.ts';

/** "Remove this user?": the account, its bindings and its sessions go. */
export function RemoveUserDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const command = useAdminCommand(onDone);
  const close = () => {
    command.setError(null);
    onClose();
  };
  return (
    <Modal
      opened={user !== undefined}
      onClose={close}
      title="Remove this user?"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {user ? (
        <Stack gap="md">
          <Text size="sm">
            {user.email} can no longer sign in and is signed out everywhere. To keep the account for later, disable it
            instead.
          </Text>
          {command.formError ? <Alert color="red">{command.formError}</Alert> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red.8"
              loading={command.isRunning}
              onClick={() =>
                void command.run({ command: 'user remove', email: user.email }).then((ok) => ok && close())
              }
            >
              Remove user
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
