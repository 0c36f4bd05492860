import { Group, Text, ThemeIcon } from '@mantine/core';
import { Icon } from './icon.tsx';

/** The product mark: a pulse in a rounded square, and the module name. */
export function BrandMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const iconSize = size === 'lg' ? 40 : 30;
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={iconSize} radius="md" color="brand.7" aria-hidden>
        <Icon name="gauge" size={iconSize * 0.6} stroke={2.2} />
      </ThemeIcon>
      <div>
        <Text fw={700} fz={size === 'lg' ? 'lg' : 'md'} lh={1.15} c="dark.8">
          Technical Health Check
        </Text>
        <Text fz="xs" c="dimmed" lh={1.2}>
          Crawl audit
        </Text>
      </div>
    </Group>
  );
}
