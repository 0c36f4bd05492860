import { Alert, Skeleton, Stack, Table, Text } from '@mantine/core';
import { fetchAuditLog } from '../../api/admin.ts';
import { formatRunTime } from '../crawls/crawl-run-format.ts';
import { useAdminList } from './use-admin-list.ts';

/** ADMIN only: the latest administration changes, newest first: when, who, what, and the command's answer. */
export function AuditPanel() {
  const { state, data: entries } = useAdminList(fetchAuditLog);
  if (state.status === 'error')
    return (
      <Alert color="red" title="The audit log could not be loaded">
        {state.error}
      </Alert>
    );
  if (!entries) return <Skeleton h={160} radius="md" aria-label="Loading the audit log" />;
  return (
    <Stack gap="sm" data-testid="admin-audit">
      <Text size="sm" c="dimmed">
        Changes made here and with the admin CLI (shown as “cli”), the latest 500.
      </Text>
      <Table.ScrollContainer minWidth={820}>
        <Table verticalSpacing="sm" fz="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={150}>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    No changes yet.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRunTime(e.at)}</Table.Td>
                <Table.Td>{e.actor}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" fw={600}>
                    {e.action}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {e.target}
                  </Text>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.detail}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
