// One small shared configuration: the recommended rules of ESLint and typescript-eslint, for every
// TypeScript file of the service, the display client, the tests, benchmarks and tools.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'tools/ferretdb/bin/', 'display-client/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain scripts that run under Node as they are (the kiosk agent).
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    rules: {
      // Declarations with `any` are deliberate at the edges (router, test replies); keep them visible.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Identity's collections are identity's: another area asks through server/identity/lookup.ts.
    files: ['server/**/*.ts'],
    ignores: ['server/identity/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.property.name='models'][property.name=/^(Token|User|Organization)$/]",
        message: "Identity's collections are identity's: ask through server/identity/lookup.ts (or add a function there).",
      }],
    },
  },
  {
    // The screen's code runs in a browser: what it shares with the server lives in common/.
    files: ['display-client/**/*.ts', 'common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'The display client and common/ do not import the server; share through common/.' }] }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'uvu', message: "Take suite and test from test/helpers/suite.ts: it reports a failing before()/after() hook's error." }] }],
    },
  },
);
