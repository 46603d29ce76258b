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
);
