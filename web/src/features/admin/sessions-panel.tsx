import { useCallback } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { fetchAdminSessions } from '../../api/admin.ts';
import { ROLE_LABELS } from '../../lib/roles.ts';
import { formatRunTime } from '../crawls/crawl-run-format.ts';
import { useAdminList } from './use-admin-list.ts';
import { AdminListFallback, AdminTable, CellTitle } from './admin-table.tsx';
import { useAdminCommand } from './use-admin-command.ts';
import { browserOf } from './browser-name.ts';

/** Who is signed in where (the users the caller manages), each session with a way to sign it out. */
export function SessionsPanel() {
  const { state, data: sessions, reload } = useAdminList(fetchAdminSessions);
  const done = useCallback(() => reload(), [reload]);
  const signOut = useAdminCommand(done);
  if (!sessions) return <AdminListFallback state={state} what="sessions" />;
  return (
    <Stack gap="sm" data-testid="admin-sessions">
      <Text size="sm" c="dimmed">
        Signing a session out ends it on every replica at once; the user signs in again to continue.
      </Text>
      {signOut.error ? <Alert color="red">{signOut.error.message}</Alert> : null}
      <AdminTable
        rows={sessions}
        columns={[
          {
            header: 'User',
            cell: (s) => <CellTitle title={s.email} detail={ROLE_LABELS[s.role]} />,
          },
          { header: 'Signed in', cell: (s) => formatRunTime(s.createdAt) },
          { header: 'Until', cell: (s) => formatRunTime(s.expiresAt), isFolded: true },
          { header: 'Address', cell: (s) => s.address ?? 'Unknown', isFolded: true },
          { header: 'Browser', cell: (s) => browserOf(s.userAgent), isFolded: true },
        ]}
        rowKey={(s) => s.id}
        rowTestId={(s) => `admin-session-${s.id}`}
        actions={(s) => (
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Sign out ${s.email} (session ${s.id})`}
            loading={signOut.isRunning}
            onClick={() => void signOut.run({ command: 'session revoke', id: s.id })}
          >
            Sign out
          </Button>
        )}
        minWidth={760}
        tableProps={{ highlightOnHover: true }}
      />
    </Stack>
  );
}
