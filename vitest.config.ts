import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one PostgreSQL database when TEST_DATABASE_URL is set; each suite uses its own schema.
    fileParallelism: true,
  },
});
