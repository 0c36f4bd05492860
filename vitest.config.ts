import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'catalog/**/*.test.ts',
      'service/**/*.test.ts',
      'scripts/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'web/src/**/*.test.{ts,tsx}',
    ],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
