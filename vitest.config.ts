import { defineConfig } from 'vitest/config';
import { textParts } from './scripts/vite-text-parts.ts';

export default defineConfig({
  test: {
    projects: [
      {
        // why: lib/i18n.ts imports de.json's parts as virtual modules.
        plugins: [textParts()],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // why: each file opens its own database; argon2 and PGlite are CPU-heavy on a 2-core machine.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
