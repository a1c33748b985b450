import { defineConfig } from 'vitest/config';

// One runner for every level; projects pick the environment each level needs.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, while
    // most of an integration file's time is spent waiting for PostgreSQL. Unit and integration
    // files share these workers; the end-to-end files run one at a time after them.
    maxWorkers: '100%',
    // `npm test` (scripts/test-all.ts) asks each of its parts for a JSON report of its own on the
    // command line and merges them into the one CI reads; a report named here would make every
    // part write the same file.
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Threads start in milliseconds where a forked process per file took most of a short
          // file's time; every file still gets fresh modules and a fresh jsdom.
          pool: 'threads',
          // They share the cores with the other parts of `npm test` (scripts/test-all.ts).
          testTimeout: 15_000,
          setupFiles: ['tests/support/unit-setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/db-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One worker runs every file in turn, instead of a new process (and a new import of
          // playwright and the support code) per file; each file still runs its own module.
          isolate: false,
          // After the unit and integration files, which share a different number of workers.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
