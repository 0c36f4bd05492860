import { Badge, type BadgeProps } from '@mantine/core';

export type Tone = 'green' | 'orange' | 'red' | 'yellow' | 'gray' | 'blue' | 'brand';

/** Text colours dark enough for WCAG AA on each light badge background. */
const TEXT: Record<Tone, string> = {
  green: '#1e5b27',
  orange: '#93330f',
  red: '#9f1c1c',
  yellow: '#6f4800',
  gray: '#3b4148',
  blue: '#1b4a80',
  brand: '#004e69',
};

/**
 * A light badge in one of the product's tones, with readable text. It keeps its whole label: in a table squeezed to a
 * narrow screen, Mantine's badge would shrink to an ellipsis ("Acti…").
 */
export function ToneBadge({
  tone,
  ...props
}: Omit<BadgeProps, 'color' | 'variant'> & { tone: Tone } & React.ComponentProps<'div'>) {
  return (
    <Badge
      variant="light"
      color={tone === 'brand' ? 'brand' : tone}
      c={TEXT[tone]}
      tt="none"
      fw={600}
      radius="sm"
      miw="max-content"
      {...props}
    />
  );
}
