import { Text } from '@mantine/core';
import type { AdminUser } from '../../api/admin.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { type AdminDialogProps, AdminModal, CommandForm } from './command-form.tsx';

/** "Remove this user?": the account, its bindings and its sessions go. */
export function RemoveUserDialog({ user, onClose, onDone }: { user: AdminUser | undefined } & AdminDialogProps) {
  const command = useAdminCommand(onDone);
  const close = () => {
    command.setError(null);
    onClose();
  };
  return (
    <AdminModal opened={user !== undefined} onClose={close} title="Remove this user?">
      {user ? (
        <CommandForm
          onSubmit={() => void command.run({ command: 'user remove', email: user.email }).then((ok) => ok && close())}
          onCancel={close}
          command={command}
          submitLabel="Remove user"
          submitColor="red.8"
          gap="md"
        >
          <Text size="sm">
            {user.email} can no longer sign in and is signed out everywhere. To keep the account for later, disable it
            instead.
          </Text>
        </CommandForm>
      ) : null}
    </AdminModal>
  );
}
