// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Attributes whose text a user reads or hears. */
const USER_VISIBLE_ATTRIBUTES =
  '/^(title|placeholder|alt|label|aria-label|aria-description|aria-placeholder|aria-roledescription|aria-valuetext)$/';
const HAS_LETTER = '/\\p{L}/u';
const I18N_HINT =
  'put user-visible text into src/i18n/locales/de/*.json and render it with t() (architecture rule 4)';

/** Architecture rule 4: no user-visible literal in a view. */
const noLiteralTextInViews = [
  { selector: `JSXText[value=${HAS_LETTER}]`, message: `Literal text in JSX: ${I18N_HINT}.` },
  {
    selector: `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=${HAS_LETTER}]`,
    message: `Literal string in JSX: ${I18N_HINT}.`,
  },
  {
    selector: `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=${HAS_LETTER}]`,
    message: `Literal text in a JSX template string: ${I18N_HINT}.`,
  },
  {
    selector: `JSXAttribute[name.name=${USER_VISIBLE_ATTRIBUTES}] > Literal[value=${HAS_LETTER}]`,
    message: `Literal user-visible attribute: ${I18N_HINT}.`,
  },
  {
    selector: `JSXAttribute[name.name=${USER_VISIBLE_ATTRIBUTES}] > JSXExpressionContainer > Literal[value=${HAS_LETTER}]`,
    message: `Literal user-visible attribute: ${I18N_HINT}.`,
  },
  {
    selector: `JSXAttribute[name.name=${USER_VISIBLE_ATTRIBUTES}] > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=${HAS_LETTER}]`,
    message: `Literal user-visible attribute: ${I18N_HINT}.`,
  },
];

/** `<prefix><area>/<file>` where <file> is not `index`: another feature's inner file. */
const featureInternals = (prefix) => ({
  regex: `^${prefix}[^./][^/]*/(?!index$).+`,
  message: 'Import another feature only through its index.ts (server/features/<area>/index).',
});

/**
 * Layers (docs/decisions/0004-layers-and-feature-faces.md): shared/ is imported by the browser app
 * and the server and imports neither; src/ and server/ meet only there; below src/app/ (the entry
 * at the top), nothing imports it.
 */
const layer = (regex, message) => ({ regex, message });
const NOT_SERVER = layer(
  '(^|/)server/',
  'The browser app does not import server/: share it through shared/.',
);
const NOT_SRC = layer('(^|/)src/', 'The server does not import src/: share it through shared/.');
const NOT_APP = layer(
  '(^|/)app/',
  'src/app/ is the entry at the top: views, machines, actors, api, forms, i18n, lib and ports do not import it.',
);
const SHARED_ONLY = layer(
  '(^|/)(src|server)/',
  'shared/ imports neither the browser app nor the server.',
);

export default defineConfig([
  globalIgnores([
    'dist/',
    'node_modules/',
    'coverage/',
    '.data/',
    'test-results/',
    'shared/contract/product.ts',
    'shared/contract/auth.ts',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    name: 'sprechstunde/typescript',
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },

  {
    name: 'sprechstunde/browser',
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'sprechstunde/node',
    files: ['server/**', 'tests/**', 'bench/**', 'scripts/**', '*.config.{js,ts}', '.ci/**'],
    languageOptions: { globals: globals.node },
  },

  {
    name: 'sprechstunde/layers-shared',
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SHARED_ONLY] }] },
  },
  {
    name: 'sprechstunde/layers-server',
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SRC] }] },
  },
  {
    name: 'sprechstunde/layers-browser',
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SERVER] }] },
  },
  {
    name: 'sprechstunde/layers-below-app',
    files: [
      'src/views/**/*.{ts,tsx}',
      'src/{api,forms,i18n,lib,ports}/**/*.ts',
      'src/machines/actors/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SERVER, NOT_APP] }] },
  },

  {
    // Tests read JSON answers loosely; the contract validator checks their shape.
    name: 'sprechstunde/tests',
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  {
    name: 'sprechstunde/react-hooks',
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended],
  },

  {
    // The app's frame (src/app/layout/) renders like a view and follows the same rules.
    name: 'sprechstunde/views',
    files: ['src/views/**/*.{ts,tsx}', 'src/app/layout/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...noLiteralTextInViews],
      // A view renders state and sends events: no fetch and no timers of its own.
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'setTimeout', 'setInterval'].map((name) => ({
          name,
          message: 'Views hold no side effects: put them into a machine (src/machines/).',
        })),
      ],
    },
  },

  {
    // A feature's index.ts is its public face. Inside a feature, files import each
    // other directly; everything else (other features, the app, jobs, seed, the auth
    // provider) imports only server/features/<area>/index. The typescript-eslint copy of the
    // rule: a later block setting the base rule for the same files adds to these patterns
    // instead of replacing them.
    name: 'sprechstunde/server-boundaries',
    files: ['server/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [featureInternals('.*/features/')] },
      ],
    },
  },
  {
    // Infrastructure knows no feature: features (and their jobs) are put together where the
    // app is assembled (server/app.ts, server/app-jobs.ts, server/main.ts).
    name: 'sprechstunde/infrastructure-boundaries',
    files: [
      'server/{jobs,http,adapters,web}/**/*.ts',
      'server/db/*.ts',
      'server/db/schema/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features(/|$)',
              message:
                'Infrastructure imports no feature: wire features in where the app is assembled.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'sprechstunde/feature-list-boundaries',
    files: ['server/features/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [featureInternals('.*/features/'), featureInternals('\\./')] },
      ],
    },
  },
  {
    name: 'sprechstunde/feature-boundaries',
    files: ['server/features/*/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            featureInternals('.*/features/'),
            // `../<area>/…` from a feature's top folder is another feature's file.
            featureInternals('\\.\\./'),
            {
              // As if the provider ran elsewhere: its HTTP surface (openapi/auth.yaml) and the
              // user events it posts (receiveAuthUserEvent in openapi/product.yaml).
              regex: '(^|/)auth-provider(/|$)',
              message:
                'Features reach the auth provider only through its HTTP surface and its events, never its code.',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'sprechstunde/machines',
    files: ['src/machines/**/*.ts'],
    ignores: ['src/machines/actors/**'],
    rules: {
      // Side effects are actors supplied through setup({ actors }), built in src/machines/actors/.
      'no-restricted-globals': [
        'error',
        {
          name: 'fetch',
          message: 'Machines call the API through actors from src/machines/actors/.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NOT_SERVER,
            NOT_APP,
            {
              group: ['**/api/client', '**/api', 'openapi-fetch'],
              allowTypeImports: true,
              message: 'Machines never import the API client: declare an actor and provide it.',
            },
          ],
        },
      ],
    },
  },
]);
