// One small shared configuration: the recommended rules of ESLint and typescript-eslint, for every
// TypeScript file of the service, the display client, the tests, benchmarks and tools.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { areas } from './server/areas/index.js';

// Each area's collections are its own (server/db/models.ts): only the area's folder uses its model set
// (types may be shared), others ask the area's functions. The owners are identity and every area of the
// manifest list (server/areas/index.ts); an area may use the sets of the areas its manifest names in
// `modelsFrom` (sms and call build theirs from the channel schemas). db/ is below every area and imports
// none. The hub is handed ports and imports no area; an area reaches the hub only through the types of
// its events and ports (server/hub/events.ts, server/hub/ports.ts).
type Pattern = { group: string[]; message: string; allowTypeImports?: boolean };

const owners = [
  { folder: 'identity', shares: [] as string[] },
  ...areas.map((a) => ({ folder: `areas/${a.name}`, shares: (a.modelsFrom ?? []).map((n) => `areas/${n}`) })),
];
const setsOf = (folders: string[]) => folders.map((f) => `**/${f.split('/').pop()}/models.js`);
const collections = (folders: string[]): Pattern => ({
  group: setsOf(folders),
  allowTypeImports: true,
  message: "Another area's collections: ask that area's functions (server/db/models.ts says who owns what).",
});
const hubOnlyThroughPorts: Pattern[] = [
  {
    group: ['**/hub/events.js', '**/hub/ports.js'],
    allowTypeImports: true,
    message: "An area uses the hub's events and ports as types: the service hands it the implementations.",
  },
  {
    group: ['**/hub/**', '!**/hub/events.js', '!**/hub/ports.js'],
    message: 'An area reaches the hub only through its events and ports (server/hub/events.ts, server/hub/ports.ts).',
  },
];
const restrict = (files: string[], patterns: Pattern[], ignores: string[] = []) => ({
  files,
  ...(ignores.length ? { ignores } : {}),
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

function layers() {
  const all = owners.map((o) => o.folder);
  return [
    ...owners.map(({ folder, shares }) =>
      restrict(
        [`server/${folder}/**/*.ts`],
        [
          collections(all.filter((o) => o !== folder && !shares.includes(o))),
          ...(folder.startsWith('areas/') ? hubOnlyThroughPorts : []),
        ],
      ),
    ),
    restrict(
      ['server/**/*.ts'],
      [collections(all)],
      [...all.map((o) => `server/${o}/**`), 'server/areas/*.ts', 'server/hub/**', 'server/db/**'],
    ),
    restrict(
      ['server/hub/**/*.ts'],
      [
        collections(all),
        { group: ['**/areas/**'], message: 'The hub imports no area: it is handed ports (server/hub/ports.ts).' },
      ],
    ),
    restrict(
      ['server/db/**/*.ts'],
      [
        {
          group: ['**/areas/**', '**/identity/**'],
          message: 'db/ is below every area: an area registers its collections itself (server/db/models.ts).',
        },
      ],
    ),
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'tools/ferretdb/bin/', 'display-client/dist/', 'console/dist/'] },
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
  ...layers(),
  {
    // The screen's code runs in a browser: what it shares with the server lives in common/.
    files: [
      'display-client/**/*.ts',
      'console/src/**/*.ts',
      'console/src/**/*.tsx',
      'members-app/src/**/*.ts',
      'members-app/src/**/*.tsx',
      'common/**/*.ts',
    ],
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
