import { useRef, useState, type DragEvent } from 'react';
import { Button, Checkbox, Group, Progress, Stack, Text, UnstyledButton } from '@mantine/core';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '../../../../catalog/data-source-calls.ts';
import { Icon } from '../../components/icon.tsx';
import { showErrorToast } from '../../lib/toast.ts';

export interface DropZoneProps {
  title: string;
  isDisabled: boolean;
  /** The upload's progress (0–1) while files are sent. */
  uploaded: number | undefined;
  onFiles: (files: File[]) => void;
  /** The next files replace the source's data on the dates they cover (a corrected export). */
  isReplace: boolean;
  onReplace: (isReplace: boolean) => void;
  testId: string;
}

/** Files dropped here or picked import into the source; the type is read from their content, not their names. */
export function DropZone({ title, isDisabled, uploaded, onFiles, isReplace, onReplace, testId }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setOver] = useState(false);
  const take = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length === 0) return;
    // Files dropped while another import runs are not lost without a word.
    if (isDisabled)
      showErrorToast('Another import is running for this website', {
        message: 'Add these files again once it has ended.',
      });
    else onFiles(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files);
  };
  if (uploaded !== undefined)
    return (
      <div data-testid={`${testId}-uploading`}>
        <Text size="xs" c="dark.4" mb={4}>
          {uploaded < 1 ? `Uploading… ${Math.round(uploaded * 100)}%` : 'Reading and checking the files…'}
        </Text>
        <Progress value={uploaded * 100} animated={uploaded >= 1} aria-label="Upload progress" />
      </div>
    );
  return (
    <Stack gap={6}>
      <UnstyledButton
        component="div"
        onDragOver={(e: DragEvent) => {
          e.preventDefault();
          setOver(!isDisabled);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid={testId}
        style={{
          border: `1px dashed var(--mantine-color-${isOver ? 'brand-6' : 'gray-5'})`,
          borderRadius: 'var(--mantine-radius-md)',
          background: isOver ? 'var(--mantine-color-brand-0)' : 'var(--mantine-color-gray-0)',
          padding: '10px 12px',
          opacity: isDisabled ? 0.6 : 1,
        }}
      >
        <Group gap="sm" justify="space-between" wrap="nowrap">
          <Group gap={8} wrap="nowrap" miw={0} style={{ flex: 1 }}>
            <Icon name="upload" size={18} color="var(--mantine-color-dark-3)" />
            <Text size="xs" c="dark.4">
              Drop {title} exports here (up to {MAX_UPLOAD_FILES} files of {Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)}{' '}
              MB)
            </Text>
          </Group>
          <Button
            size="compact-sm"
            variant="default"
            disabled={isDisabled}
            onClick={() => input.current?.click()}
            style={{ flexShrink: 0 }}
          >
            Choose files
          </Button>
        </Group>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label={`${title} files to import`}
          data-testid={`${testId}-input`}
          onChange={(e) => {
            take(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </UnstyledButton>
      <Checkbox
        size="xs"
        label="Replace the dates these files cover"
        description="For a corrected export: the source's data on those dates goes, and the totals of a period that includes one of them go whole."
        checked={isReplace}
        disabled={isDisabled}
        onChange={(e) => onReplace(e.currentTarget.checked)}
        data-testid={`${testId}-replace`}
      />
    </Stack>
  );
}
