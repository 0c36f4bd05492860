import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { useLocation, useSearch } from 'wouter';
import { Icon } from '../../components/icon.tsx';
import { WebsitesPanel } from './websites-panel.tsx';
import { UsersPanel } from './users-panel.tsx';
import { SessionsPanel } from './sessions-panel.tsx';
import { AuditPanel } from './audit-panel.tsx';

const TABS = ['websites', 'users', 'sessions', 'audit'] as const;
type Tab = (typeof TABS)[number];
const TAB_PARAM = 'tab';

function tabOf(search: string): Tab {
  const tab = new URLSearchParams(search).get(TAB_PARAM);
  return (TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : 'websites';
}

/**
 * Administration for ADMIN and STAFF users: websites, users, who is signed in, and (ADMIN) the audit log. STAFF see
 * and change their own websites and those websites' clients only; the service checks every change as the CLI does.
 */
export function AdminPage() {
  const { user } = useDashboard();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const isAdmin = user.role === 'ADMIN';
  const tab = tabOf(search);
  const setTab = (next: string | null) => {
    const params = new URLSearchParams(search);
    params.set(TAB_PARAM, next ?? 'websites');
    navigate(`${location}?${params.toString()}`, { replace: true });
  };
  return (
    <Stack gap="md" maw={1200}>
      <header>
        <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.2}>
          Administration
        </Title>
        <Text size="sm" c="dark.4" mt={4} maw={820}>
          {isAdmin
            ? 'Websites, users and who is signed in. Every change is checked as the admin CLI checks it and kept in the audit log.'
            : 'Your websites and their client users, and who of them is signed in. Ask an admin to add websites or staff.'}
        </Text>
      </header>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="websites" leftSection={<Icon name="world" size={16} />}>
            Websites
          </Tabs.Tab>
          <Tabs.Tab value="users" leftSection={<Icon name="user" size={16} />}>
            Users
          </Tabs.Tab>
          <Tabs.Tab value="sessions" leftSection={<Icon name="lock" size={16} />}>
            Sessions
          </Tabs.Tab>
          {isAdmin ? (
            <Tabs.Tab value="audit" leftSection={<Icon name="list-details" size={16} />}>
              Audit log
            </Tabs.Tab>
          ) : null}
        </Tabs.List>
        <Tabs.Panel value="websites">
          <WebsitesPanel isAdmin={isAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <UsersPanel isAdmin={isAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsPanel />
        </Tabs.Panel>
        {isAdmin ? (
          <Tabs.Panel value="audit">
            <AuditPanel />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </Stack>
  );
}
