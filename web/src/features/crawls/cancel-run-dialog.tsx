import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';

export interface CancelRunDialogProps {
  opened: boolean;
  isCancelling: boolean;
  onClose: () => void;
  onConfirm: (keepCrawled: boolean) => void;
}

/** "Cancel this crawl?": by default a cancelled crawl loads nothing; the user may keep what was crawled. */
export function CancelRunDialog({ opened, isCancelling, onClose, onConfirm }: CancelRunDialogProps) {
  const [keepCrawled, setKeepCrawled] = useState(false);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Cancel this crawl?"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      onExitTransitionEnd={() => setKeepCrawled(false)}
    >
      <Stack gap="md">
        <Text size="sm">
          The crawler stops as soon as it can. Unless you keep them, the pages crawled so far are discarded and no crawl
          is loaded.
        </Text>
        <Checkbox
          label="Keep the pages crawled so far and load them as a crawl"
          checked={keepCrawled}
          onChange={(e) => setKeepCrawled(e.currentTarget.checked)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Keep crawling
          </Button>
          <Button color="red.8" loading={isCancelling} onClick={() => onConfirm(keepCrawled)}>
            Cancel crawl
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
