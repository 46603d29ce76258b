#!/usr/bin/env node
// `npm run --silent admin -- …` runs this: the admin command line (server/admin/cli.ts) answers in well
// under a second because it is not compiled on every call. It is bundled once with esbuild into
// node_modules/.cache/alarm-hub/admin.mjs (its packages stay in node_modules) and bundled again only when
// a source under server/, schemas/ or common/ is newer than the bundle.
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'node_modules', '.cache', 'alarm-hub', 'admin.mjs');

async function newest(dir) {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    latest = Math.max(latest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return latest;
}

async function fresh() {
  const built = await stat(bundle).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  const sources = Math.max(
    ...(await Promise.all(['server', 'schemas', 'common'].map((d) => newest(path.join(root, d))))),
  );
  return built > sources;
}

if (!(await fresh())) {
  const { build } = await import('esbuild');
  await mkdir(path.dirname(bundle), { recursive: true });
  // Written beside and renamed: two commands bundling at once never load a half-written file.
  const temporary = `${bundle}.${process.pid}.mjs`;
  await build({
    entryPoints: [path.join(root, 'server/admin/cli.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  const { rename } = await import('node:fs/promises');
  await rename(temporary, bundle);
}
await import(pathToFileURL(bundle).href);
