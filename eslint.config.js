// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// why these restricted imports: each storage library is wrapped in one place (ARCHITECTURE.md).
const dexieOnlyInClientDb = {
  paths: [
    { name: 'dexie', message: 'Import Dexie only under src/client/db or src/client/sync.' },
    { name: 'dexie-react-hooks', message: 'Import dexie-react-hooks only under src/client/db or src/client/sync.' },
  ],
};
const drizzleOnlyInServerDb = {
  patterns: [{ group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Import drizzle-orm only under src/server/db or src/server/services.' }],
};

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * Why the client's folders are layers: a screen reads the device database only through the sync engine or a
 * store (so liveness, pending flags and quota errors are handled once), a feature reaches another's code only
 * through the shared folders (so features can move or go without breaking each other), and the engine and
 * shared UI never reach up into screens. Judged on the resolved path, so `../x` and `../../features/x` are alike.
 *
 * @param {string} from the importing file, relative to the repository, with `/`
 * @param {string} to the imported module, likewise
 * @returns {string | null} the message id of the broken rule
 */
function clientLayerViolation(from, to) {
  const [fromRoot, fromSide, fromTop, fromFeature] = from.split('/');
  const [toRoot, toSide, toTop, toFeature] = to.split('/');
  if (fromRoot !== 'src' || fromSide !== 'client' || toRoot !== 'src' || toSide !== 'client') return null;
  if (fromTop === 'features' && toTop === 'db') return 'featureToDb';
  if (fromTop === 'features' && toTop === 'features' && toFeature !== fromFeature) return 'featureToFeature';
  if (['components', 'lib', 'stores', 'sync'].includes(fromTop ?? '') && (toTop === 'features' || toTop === 'app')) return 'upward';
  if (fromTop === 'db' && toTop !== 'db') return 'dbOutward';
  return null;
}

/** @type {import('eslint').ESLint.Plugin} */
const layers = {
  rules: {
    'client-layers': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          featureToDb: 'A feature does not import src/client/db: read and write through src/client/sync or src/client/stores.',
          featureToFeature: 'A feature imports only its own folder among features: move what both need to src/client/components, lib, stores or sync.',
          upward: 'src/client/components, lib, stores and sync never import src/client/features or src/client/app.',
          dbOutward: 'src/client/db imports none of the other client folders.',
        },
      },
      create(context) {
        const from = path.relative(ROOT, context.filename).split(path.sep).join('/');
        /** @param {import('estree').Node | null | undefined} source */
        const check = (source) => {
          if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const to = path.relative(ROOT, path.resolve(path.dirname(context.filename), source.value)).split(path.sep).join('/');
          const messageId = clientLayerViolation(from, to);
          if (messageId) context.report({ node: source, messageId });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
        };
      },
    },
  },
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
    plugins: { layers },
    rules: { 'layers/client-layers': 'error' },
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
