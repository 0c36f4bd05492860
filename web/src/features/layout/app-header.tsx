import { Burger, Group } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { BrandMark } from '../../components/brand-mark.tsx';
import { WebsitePicker } from './website-picker.tsx';
import { UserMenu } from './user-menu.tsx';
import { NotificationBell } from '../notifications/notification-bell.tsx';
import { isInternalUser, useSessionStore } from '../../stores/session-store.ts';

export interface AppHeaderProps {
  websites: Website[];
  website: Website | undefined;
  hasBurger: boolean;
  isNavOpen: boolean;
  onToggleNav: () => void;
  onWebsiteChange: (websiteId: string) => void;
}

export function AppHeader({ websites, website, hasBurger, isNavOpen, onToggleNav, onWebsiteChange }: AppHeaderProps) {
  const isInternal = useSessionStore((s) => isInternalUser(s.user));
  return (
    <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" miw={0}>
        {hasBurger ? (
          <Burger
            opened={isNavOpen}
            onClick={onToggleNav}
            hiddenFrom="md"
            size="sm"
            aria-label={isNavOpen ? 'Close the report menu' : 'Open the report menu'}
          />
        ) : null}
        <BrandMark />
      </Group>
      <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '0 1 auto' }}>
        <WebsitePicker websites={websites} website={website} onChange={onWebsiteChange} />
        {isInternal ? <NotificationBell /> : null}
        <UserMenu />
      </Group>
    </Group>
  );
}
