import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Button,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Switch,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { Link } from 'wouter';
import { crawlTimeText } from '../../../../catalog/crawl-label.ts';
import type { RunNotice } from '../../../../catalog/notifications.ts';
import { Icon } from '../../components/icon.tsx';
import { useNotificationsStore } from '../../stores/notifications-store.ts';

/** How often the notices are read again while the page is visible. */
export const NOTICE_POLL_MS = 30_000;

const OUTCOME_COLOR: Record<RunNotice['outcome'], string> = {
  finished: 'var(--mantine-color-teal-7)',
  partial: 'var(--mantine-color-orange-7)',
  failed: 'var(--mantine-color-red-8)',
};

/** Reads the notices now, every NOTICE_POLL_MS while the page is visible, and when it is shown again. */
function useNoticePolling(): void {
  const load = useNotificationsStore((s) => s.load);
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => {
      if (document.visibilityState !== 'hidden') void load();
    }, NOTICE_POLL_MS);
    const onShown = () => {
      if (document.visibilityState !== 'hidden') void load();
    };
    document.addEventListener('visibilitychange', onShown);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onShown);
    };
  }, [load]);
}

/**
 * The bell in the header of internal users: how many crawl-run notices are unread, and in its panel the notices
 * (newest first, each leading to its crawl or the Crawls page), "Mark all read" and the email switch.
 */
export function NotificationBell() {
  useNoticePolling();
  const { answer, error, markRead, setCrawlEmailed, load } = useNotificationsStore();
  const [isOpen, setOpen] = useState(false);
  const unread = answer?.unread ?? 0;
  const open = (next: boolean) => {
    setOpen(next);
    if (next) void load();
  };

  return (
    <Popover
      width={360}
      position="bottom-end"
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
      opened={isOpen}
      onChange={open}
    >
      {/* The target is the button itself: the popover's aria-expanded is allowed there, not on the indicator. */}
      <Indicator label={unread > 99 ? '99+' : unread} size={18} color="red" disabled={unread === 0} offset={4}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="xl"
            onClick={() => open(!isOpen)}
            aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
            data-testid="notification-bell"
          >
            <Icon name="bell" size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} data-testid="notification-panel" aria-label="Notifications">
        <Group justify="space-between" px="md" py="xs" wrap="nowrap">
          <Text fw={600} size="sm">
            Crawl notifications
          </Text>
          <Button variant="subtle" size="compact-xs" disabled={unread === 0} onClick={() => void markRead('all')}>
            Mark all read
          </Button>
        </Group>
        <Divider />
        {error ? (
          <Text size="xs" c="red.9" px="md" py="xs" data-testid="notification-error">
            Notifications could not be loaded: {error}
          </Text>
        ) : null}
        <ScrollArea.Autosize mah={360} type="auto">
          {answer && answer.notices.length === 0 ? (
            <Text size="sm" c="dark.5" px="md" py="sm" data-testid="notification-empty">
              Nothing yet. You are told here when a crawl of one of your websites ends.
            </Text>
          ) : (
            <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {answer?.notices.map((notice) => (
                <NoticeItem
                  key={notice.id}
                  notice={notice}
                  onOpen={() => {
                    if (!notice.isRead) void markRead([notice.id]);
                    setOpen(false);
                  }}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        <Divider />
        <Switch
          px="md"
          py="sm"
          size="sm"
          label="Email me when a crawl of my websites ends"
          checked={answer?.isCrawlEmailed ?? true}
          disabled={!answer}
          onChange={(event) => void setCrawlEmailed(event.currentTarget.checked)}
          data-testid="notification-email"
        />
      </Popover.Dropdown>
    </Popover>
  );
}

function NoticeItem({ notice, onOpen }: { notice: RunNotice; onOpen: () => void }) {
  return (
    <li data-notice={notice.id} data-read={notice.isRead} data-outcome={notice.outcome}>
      <UnstyledButton
        component={Link}
        href={notice.path}
        onClick={onOpen}
        px="md"
        py="xs"
        w="100%"
        display="block"
        style={{ background: notice.isRead ? undefined : 'var(--mantine-color-blue-0)' }}
      >
        <Group gap={8} wrap="nowrap" align="flex-start">
          <span
            aria-hidden
            style={{
              flex: 'none',
              width: 8,
              height: 8,
              marginTop: 6,
              borderRadius: 4,
              background: OUTCOME_COLOR[notice.outcome],
            }}
          />
          <Stack gap={2} miw={0}>
            <Text size="sm" fw={notice.isRead ? 400 : 600} data-testid="notice-title">
              {notice.title}
            </Text>
            <Text size="xs" c="dark.6" style={{ overflowWrap: 'anywhere' }} data-testid="notice-detail">
              {notice.detail}
            </Text>
            <Text size="xs" c="dark.4">
              {crawlTimeText(notice.createdAt)}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
    </li>
  );
}
