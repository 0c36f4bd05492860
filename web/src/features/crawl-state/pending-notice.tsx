import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { Crawl } from '../../api/types.ts';
import { approveCrawl } from '../../api/technical-health-check.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';
import { showErrorToast, showLoadingToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { SettingDifferencesList, useSettingDifferences } from './settings-differ-notice.tsx';
import { APPROVE_ERROR_TOAST, APPROVED_TOAST, APPROVING_TOAST, AUTO_APPROVAL_COPY } from './approval-copy.ts';

/** Internal users only: the crawl is pending; approve it to publish it to the client now. */
export function PendingNotice({ crawl }: { crawl: Crawl }) {
  const { website, overview, reloadCrawls } = useDashboard();
  const [isApproving, setApproving] = useState(false);
  const differences = useSettingDifferences();
  const moduleId = overview.status === 'success' ? overview.data.moduleId : undefined;

  const approve = async () => {
    if (moduleId === undefined) return;
    const toastId = `approve-${website.id}-${crawl.crawlId}`;
    setApproving(true);
    showLoadingToast(toastId, APPROVING_TOAST);
    try {
      await approveCrawl(moduleId, website.id);
      showSuccessToast(APPROVED_TOAST, { id: toastId });
      useCrawlsStore.getState().markApproved(crawl.crawlId);
      reloadCrawls();
    } catch {
      showErrorToast(APPROVE_ERROR_TOAST, { id: toastId });
    } finally {
      setApproving(false);
    }
  };

  return (
    <Alert
      color="yellow"
      variant="light"
      radius="md"
      icon={<Icon name="clock" size={20} />}
      title="This crawl is pending approval"
      data-testid="pending-notice"
      styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Group justify="space-between" align="center" gap="md" wrap="wrap">
        <Stack gap={4} maw={760}>
          <Text size="sm" c="dark.6">
            The crawl of {crawl.label} is visible to internal users only. {AUTO_APPROVAL_COPY}
          </Text>
          <Text size="sm" c="dark.6">
            Approve it now to publish it to the client straight away.
          </Text>
          {differences.length > 0 ? (
            <Stack gap={2} data-testid="pending-settings-differ">
              <Text size="sm" c="dark.6" fw={600}>
                Check before approving: it was run with other settings than the crawl it is compared with.
              </Text>
              <SettingDifferencesList differences={differences} />
            </Stack>
          ) : null}
        </Stack>
        <Button
          color="dark"
          onClick={() => void approve()}
          loading={isApproving}
          disabled={moduleId === undefined}
          leftSection={<Icon name="check" size={16} />}
        >
          Approve
        </Button>
      </Group>
    </Alert>
  );
}
