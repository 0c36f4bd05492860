import { useCallback, useState } from 'react';
import { Alert, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { fetchAdminUsers, fetchAdminWebsites, type AdminCommand, type AdminUser } from '../../api/admin.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { useAdminList } from './use-admin-list.ts';
import { AdminListFallback, AdminTable, CellTitle, RowActionsMenu } from './admin-table.tsx';
import { useAdminCommand } from './use-admin-command.ts';
import { UserDialog } from './user-dialog.tsx';
import { RemoveUserDialog } from './remove-user-dialog.tsx';
import { websiteLabels } from './website-settings.ts';
import { ROLE_LABELS } from '../../lib/roles.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'remove'; user: AdminUser } | null;

/** The users the caller manages: invite or add, role and websites, password reset, disable, remove. */
export function UsersPanel({ isAdmin }: { isAdmin: boolean }) {
  const users = useAdminList(fetchAdminUsers);
  const websites = useAdminList(fetchAdminWebsites);
  const [dialog, setDialog] = useState<Dialog>(null);
  const reloadUsers = users.reload;
  const changed = useCallback(() => reloadUsers(), [reloadUsers]);
  const action = useAdminCommand(changed);

  if (!users.data) return <AdminListFallback state={users.state} what="users" />;
  const labels = websiteLabels(websites.data ?? []);
  const websiteName = (id: string) => labels.get(id) ?? id;

  return (
    <Stack gap="sm" data-testid="admin-users">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          {isAdmin
            ? 'Clients see the websites they are bound to; staff manage theirs; admins see every website.'
            : 'The client users of your websites.'}
        </Text>
        <Button size="sm" leftSection={<Icon name="plus" size={16} />} onClick={() => setDialog({ kind: 'add' })}>
          Add user
        </Button>
      </Group>
      {action.error ? (
        <Alert color="red" withCloseButton onClose={() => action.setError(null)}>
          {action.error.message}
        </Alert>
      ) : null}
      <AdminTable
        rows={users.data}
        columns={[
          {
            header: 'Email',
            cell: (user) => <CellTitle title={user.email} />,
          },
          { header: 'Role', cell: (user) => ROLE_LABELS[user.role], isFolded: true },
          {
            header: 'Websites',
            cell: (user) =>
              user.role === 'ADMIN' ? 'Every website' : user.websites.map(websiteName).join(', ') || 'None',
          },
          {
            header: 'Status',
            cell: (user) => (
              <ToneBadge tone={user.isDisabled ? 'red' : 'green'} size="sm">
                {user.isDisabled ? 'Disabled' : 'Active'}
              </ToneBadge>
            ),
          },
        ]}
        rowKey={(user) => user.id}
        rowTestId={(user) => `admin-user-${user.email}`}
        actions={(user) => (
          <UserActions
            user={user}
            onRun={(command) => void action.run(command)}
            onEdit={() => setDialog({ kind: 'edit', user })}
            onRemove={() => setDialog({ kind: 'remove', user })}
          />
        )}
        empty="No users yet."
        minWidth={720}
        tableProps={{ highlightOnHover: true }}
      />
      <UserDialog
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        user={dialog?.kind === 'edit' ? dialog.user : undefined}
        websites={websites.data ?? []}
        isAdmin={isAdmin}
        onClose={() => setDialog(null)}
        onDone={changed}
      />
      <RemoveUserDialog
        user={dialog?.kind === 'remove' ? dialog.user : undefined}
        onClose={() => setDialog(null)}
        onDone={changed}
      />
    </Stack>
  );
}

function UserActions({
  user,
  onRun,
  onEdit,
  onRemove,
}: {
  user: AdminUser;
  onRun: (command: AdminCommand) => void;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <RowActionsMenu subject={user.email}>
      <Menu.Item onClick={onEdit}>Change role and websites</Menu.Item>
      <Menu.Item
        disabled={user.isDisabled}
        onClick={() => onRun({ command: 'user reset-password', email: user.email })}
      >
        Email a password reset link
      </Menu.Item>
      <Menu.Item
        onClick={() =>
          onRun({
            command: user.isDisabled ? 'user enable' : 'user disable',
            email: user.email,
          })
        }
      >
        {user.isDisabled ? 'Enable' : 'Disable'}
      </Menu.Item>
      <Menu.Divider />
      <Menu.Item color="red" onClick={onRemove}>
        Remove…
      </Menu.Item>
    </RowActionsMenu>
  );
}
