// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// why these restricted imports: each storage/state library is wrapped in one module (docs/style.md §8).
const dexieOnlyInClientDb = {
  paths: [
    { name: 'dexie', message: 'Import Dexie only under src/client/db or src/client/sync.' },
    { name: 'dexie-react-hooks', message: 'Import dexie-react-hooks only under src/client/db or src/client/sync.' },
  ],
};
const drizzleOnlyInServerDb = {
  patterns: [{ group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Import drizzle-orm only under src/server/db or src/server/services.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/db/**', 'src/client/sync/**'],
    rules: { 'no-restricted-imports': ['error', dexieOnlyInClientDb] },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/db/**', 'src/server/services/**'],
    rules: { 'no-restricted-imports': ['error', drizzleOnlyInServerDb] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**', '**/server/**'], message: 'src/shared must not depend on client or server code.' }] }],
    },
  },
);
