import { useCallback, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Menu, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { fetchAdminUsers, fetchAdminWebsites, type AdminCommand, type AdminUser } from '../../api/admin.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { useAdminList } from './use-admin-list.ts';
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

  if (users.state.status === 'error')
    return (
      <Alert color="red" title="The users could not be loaded">
        {users.state.error}
      </Alert>
    );
  if (!users.data) return <Skeleton h={160} radius="md" aria-label="Loading the users" />;
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
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" highlightOnHover fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Websites</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th w={48}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    No users yet.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {users.data.map((user) => (
              <Table.Tr key={user.id} data-testid={`admin-user-${user.email}`}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {user.email}
                  </Text>
                </Table.Td>
                <Table.Td>{ROLE_LABELS[user.role]}</Table.Td>
                <Table.Td>
                  {user.role === 'ADMIN' ? 'Every website' : user.websites.map(websiteName).join(', ') || 'None'}
                </Table.Td>
                <Table.Td>
                  <ToneBadge tone={user.isDisabled ? 'red' : 'green'} size="sm">
                    {user.isDisabled ? 'Disabled' : 'Active'}
                  </ToneBadge>
                </Table.Td>
                <Table.Td>
                  <UserActions
                    user={user}
                    onRun={(command) => void action.run(command)}
                    onEdit={() => setDialog({ kind: 'edit', user })}
                    onRemove={() => setDialog({ kind: 'remove', user })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${user.email}`}>
          <Icon name="chevron-down" size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
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
      </Menu.Dropdown>
    </Menu>
  );
}
