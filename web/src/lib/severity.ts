import type { Severity } from '../../../catalog/schema.ts';

export const SEVERITY_LABELS: Record<Severity, string> = {
  CRITICAL: 'Critical',
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
  NONE: 'None',
};

/** Severity swatches (CSS colours) used for dots and accents. */
export const SEVERITY_COLOURS: Record<Severity, string> = {
  CRITICAL: 'var(--mantine-color-red-8)',
  HIGH: 'var(--mantine-color-orange-7)',
  MEDIUM: 'var(--mantine-color-yellow-6)',
  LOW: 'var(--mantine-color-blue-6)',
  NONE: 'var(--mantine-color-gray-5)',
};

export const SEVERITY_TONES: Record<Severity, 'red' | 'orange' | 'yellow' | 'blue' | 'gray'> = {
  CRITICAL: 'red',
  HIGH: 'orange',
  MEDIUM: 'yellow',
  LOW: 'blue',
  NONE: 'gray',
};
