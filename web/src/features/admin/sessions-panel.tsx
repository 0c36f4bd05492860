import { useCallback } from 'react';
import { Alert, Button, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { fetchAdminSessions } from '../../api/admin.ts';
import { ROLE_LABELS } from '../../lib/roles.ts';
import { formatRunTime } from '../crawls/crawl-run-format.ts';
import { useAdminList } from './use-admin-list.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { browserOf } from './browser-name.ts';

/** Who is signed in where (the users the caller manages), each session with a way to sign it out. */
export function SessionsPanel() {
  const { state, data: sessions, reload } = useAdminList(fetchAdminSessions);
  const done = useCallback(() => reload(), [reload]);
  const signOut = useAdminCommand(done);
  if (state.status === 'error')
    return (
      <Alert color="red" title="The sessions could not be loaded">
        {state.error}
      </Alert>
    );
  if (!sessions) return <Skeleton h={160} radius="md" aria-label="Loading the sessions" />;
  return (
    <Stack gap="sm" data-testid="admin-sessions">
      <Text size="sm" c="dimmed">
        Signing a session out ends it on every replica at once; the user signs in again to continue.
      </Text>
      {signOut.error ? <Alert color="red">{signOut.error.message}</Alert> : null}
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Signed in</Table.Th>
              <Table.Th>Until</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Browser</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sessions.map((s) => (
              <Table.Tr key={s.id} data-testid={`admin-session-${s.id}`}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {s.email}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {ROLE_LABELS[s.role]}
                  </Text>
                </Table.Td>
                <Table.Td>{formatRunTime(s.createdAt)}</Table.Td>
                <Table.Td>{formatRunTime(s.expiresAt)}</Table.Td>
                <Table.Td>{s.address ?? 'Unknown'}</Table.Td>
                <Table.Td>{browserOf(s.userAgent)}</Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`Sign out ${s.email} (session ${s.id})`}
                    loading={signOut.isRunning}
                    onClick={() => void signOut.run({ command: 'session revoke', id: s.id })}
                  >
                    Sign out
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
