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

/** Props whose string is read or shown to the user (screen readers read aria-label, title shows as a tooltip). */
const TEXT_PROPS = new Set(['title', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-valuetext', 'aria-roledescription', 'placeholder', 'label', 'alt', 'helperText', 'errorText']);
/** Any letter of any script: a text a user reads, as opposed to symbols and numbers ("·", "→", "12"). */
const HAS_LETTER = /\p{L}/u;

/**
 * Why a rule for user-facing text: the app ships German and English (docs/client.md, "i18n"), and a text written
 * into a component is shown in one language only. JSX text with a letter, and a string with a letter in a text
 * prop or as a JSX child expression, must come from t() (src/client/i18n/{de,en}.json).
 * @type {import('eslint').ESLint.Plugin}
 */
const i18n = {
  rules: {
    'no-literal-text': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          jsxText: 'User-facing text "{{text}}" is written in the component: put it into src/client/i18n/de.json and en.json and use t().',
          prop: 'The {{prop}} "{{text}}" is written in the component: put it into src/client/i18n/de.json and en.json and use t().',
        },
      },
      create(context) {
        /** @param {import('estree').Node | null | undefined} node @returns {string | null} the literal text with a letter */
        const literalText = (node) => {
          if (!node) return null;
          if (node.type === 'Literal' && typeof node.value === 'string') return HAS_LETTER.test(node.value) ? node.value : null;
          if (node.type === 'TemplateLiteral') {
            const text = node.quasis.map((quasi) => quasi.value.cooked ?? '').join('…');
            return HAS_LETTER.test(text) ? text : null;
          }
          if (node.type === 'ConditionalExpression') return literalText(node.consequent) ?? literalText(node.alternate);
          if (node.type === 'LogicalExpression') return literalText(node.right);
          return null;
        };
        const short = (text) => text.trim().replace(/\s+/g, ' ').slice(0, 40);
        return {
          /** @param {any} node */
          JSXText(node) {
            if (HAS_LETTER.test(node.value)) context.report({ node, messageId: 'jsxText', data: { text: short(node.value) } });
          },
          /** @param {any} node */
          JSXExpressionContainer(node) {
            if (node.parent?.type !== 'JSXElement' && node.parent?.type !== 'JSXFragment') return;
            const text = literalText(node.expression);
            if (text !== null) context.report({ node, messageId: 'jsxText', data: { text: short(text) } });
          },
          /** @param {any} node */
          JSXAttribute(node) {
            const prop = node.name.type === 'JSXIdentifier' ? node.name.name : null;
            if (!prop || !TEXT_PROPS.has(prop) || !node.value) return;
            const text = node.value.type === 'JSXExpressionContainer' ? literalText(node.value.expression) : literalText(node.value);
            if (text !== null) context.report({ node, messageId: 'prop', data: { prop, text: short(text) } });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'src/server/db/migrations/**', '**/*.tmp.ts'] },
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
    files: ['src/client/**/*.tsx'],
    plugins: { i18n },
    rules: { 'i18n/no-literal-text': 'error' },
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
    // why: the suite's own `test` fails a spec on any CSP violation (tests/e2e/support/test.ts); Playwright's would not.
    files: ['tests/e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@playwright/test', importNames: ['test'], message: "Import test from './support/test': it fails a spec on CSP violations." }] }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**', '**/server/**'], message: 'src/shared must not depend on client or server code.' }] }],
    },
  },
  {
    // A request's value as a key into a plain object finds Object.prototype's members (`__proto__`, `toString`):
    // look it up with Object.hasOwn (textIn, localized in src/shared/domain/text.ts) or in a Map.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[computed=true] > MemberExpression.property[object.name=/^(request|body|query|params|input|headers)$/]',
          message: 'Do not index an object with request input; use Object.hasOwn (textIn, localized) or a Map.',
        },
        {
          selector: 'MemberExpression[computed=true] > MemberExpression.property[object.type="MemberExpression"][object.property.name=/^(body|query|params|headers)$/]',
          message: 'Do not index an object with request input; use Object.hasOwn (textIn, localized) or a Map.',
        },
        {
          selector: 'MemberExpression[computed=true] > Identifier.property[name="lang"]',
          message: 'Do not index an object with a language from a request or a device; use textIn or localized (src/shared/domain/text.ts).',
        },
      ],
    },
  },
);
