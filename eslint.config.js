// One small shared configuration: the recommended rules of ESLint and typescript-eslint, for every
// TypeScript file of the service, the display client, the tests, benchmarks and tools.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Each area's collections are its own (server/db/models.ts): only the area's folder uses its model set
// (types may be shared), others ask the area's functions; server/areas/models.ts lists every set for the
// database to open with, server/areas/index.ts builds every area's commands on theirs. sms and call
// build their collections from the channel schemas. db/ is below every area and imports none.
const owners = [
  'identity',
  ...['app', 'call', 'channels', 'els-cobra', 'journal', 'monitor', 'screens', 'sms', 'things', 'alarms'].map(
    (a) => `areas/${a}`,
  ),
];
const setsOf = (folders) => folders.map((f) => `**/${f.split('/').pop()}/models.js`);
function ownedCollections() {
  const rule = (group) => ({
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group,
            allowTypeImports: true,
            message: "Another area's collections: ask that area's functions (server/db/models.ts says who owns what).",
          },
        ],
      },
    ],
  });
  return [
    ...owners.map((owner) => ({
      files: [`server/${owner}/**/*.ts`],
      rules: rule(
        setsOf(
          owners.filter((o) => o !== owner && !(o === 'areas/channels' && ['areas/sms', 'areas/call'].includes(owner))),
        ),
      ),
    })),
    {
      files: ['server/**/*.ts'],
      ignores: [
        ...owners.map((o) => `server/${o}/**`),
        'server/areas/models.ts',
        'server/areas/index.ts',
        'server/db/**',
      ],
      rules: rule(setsOf(owners)),
    },
    {
      files: ['server/db/**/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/areas/**', '**/identity/**'],
                message: 'db/ is below every area: an area registers its collections itself (server/db/models.ts).',
              },
            ],
          },
        ],
      },
    },
  ];
}

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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  ...ownedCollections(),
  {
    // The screen's code runs in a browser: what it shares with the server lives in common/.
    files: ['display-client/**/*.ts', 'common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**'],
              message: 'The display client and common/ do not import the server; share through common/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'uvu',
              message:
                "Take suite and test from test/helpers/suite.ts: it reports a failing before()/after() hook's error.",
            },
          ],
        },
      ],
    },
  },
);
