import { useState } from 'react';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useSessionStore } from '../../stores/session-store.ts';
import { useWebsitesStore } from '../../stores/websites-store.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';
import { useOverviewStore } from '../../stores/overview-store.ts';
import { useDataSourcesStore } from '../../stores/data-sources-store.ts';
import { useNotificationsStore } from '../../stores/notifications-store.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { ROLE_LABELS } from '../../lib/roles.ts';
import { Link } from 'wouter';
import { ADMIN_PATH } from '../../lib/routes.ts';
import { formatUrlState } from '../../lib/url-state.ts';
import { useUrlState } from '../../lib/use-url-state.ts';

function initialsOf(email: string): string {
  const name = email.split('@')[0] ?? '';
  const parts = name.split(/[._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
}

export function UserMenu() {
  const user = useSessionStore((s) => s.user);
  const logout = useSessionStore((s) => s.logout);
  const [url] = useUrlState();
  const [isLeaving, setLeaving] = useState(false);
  if (!user) return null;

  const signOut = async () => {
    setLeaving(true);
    try {
      await logout();
    } finally {
      useWebsitesStore.getState().reset();
      useCrawlsStore.getState().reset();
      useOverviewStore.getState().reset();
      useDataSourcesStore.getState().reset();
      useNotificationsStore.getState().reset();
      setLeaving(false);
    }
  };

  return (
    <Menu position="bottom-end" width={260} shadow="md" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton
          aria-label={`User menu for ${user.email}`}
          data-testid="user-menu"
          style={{ borderRadius: 999 }}
        >
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="brand" variant="filled">
              {initialsOf(user.email)}
            </Avatar>
            <Icon name="chevron-down" size={14} color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {/* A group keeps the account details valid inside role="menu". */}
        <div role="group" aria-label={`Signed in as ${user.email}, ${ROLE_LABELS[user.role]}`}>
          <Menu.Label>Signed in as</Menu.Label>
          <Group px="sm" pb="xs" gap="xs" wrap="nowrap" justify="space-between">
            <Text size="sm" fw={500} truncate>
              {user.email}
            </Text>
            <ToneBadge tone="gray" size="sm">
              {ROLE_LABELS[user.role]}
            </ToneBadge>
          </Group>
        </div>
        <Menu.Divider />
        {user.role === 'CLIENT' ? null : (
          <Menu.Item
            component={Link}
            href={`${ADMIN_PATH}${formatUrlState({ website: url.website })}`}
            leftSection={<Icon name="shield-lock" size={16} />}
            data-testid="admin-link"
          >
            Administration
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<Icon name="logout" size={16} />}
          onClick={() => void signOut()}
          disabled={isLeaving}
          data-testid="logout"
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
