// Builds the staff's pages (docs/console.md) in memory with esbuild, as display-client/build.ts builds
// the display: the server calls this once at boot and serves /console/app.js, /console/app.css and the
// page; `npm run build` writes them to dist/console/assets/, which the compiled server reads instead.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Built = { 'app.js': string; 'app.css': string; 'index.html': string };

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const FILES = ['app.js', 'app.css', 'index.html'] as const;

/** The console: the prebuilt assets when there are some (production), else built now. */
export async function buildConsole(): Promise<Built> {
  const prebuilt = await Promise.all(FILES.map((f) => readFile(here(`./assets/${f}`), 'utf8').catch(() => null)));
  if (prebuilt.every((text) => text !== null))
    return Object.fromEntries(FILES.map((f, i) => [f, prebuilt[i]])) as Built;
  return bundleConsole();
}

/** A minified bundle (Preact's JSX compiled by esbuild), minified CSS and the page, from the sources. */
export async function bundleConsole(): Promise<Built> {
  const { build } = await import('esbuild');
  const [bundle, css, html] = await Promise.all([
    build({
      entryPoints: [here('./src/main.tsx')],
      bundle: true,
      minify: true,
      write: false,
      target: 'es2020',
      format: 'iife',
      platform: 'browser',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      legalComments: 'none',
      logLevel: 'silent',
    }),
    build({
      entryPoints: [here('./styles.css')],
      bundle: true,
      minify: true,
      write: false,
      target: 'chrome105',
      logLevel: 'silent',
    }),
    readFile(here('./index.html'), 'utf8'),
  ]);
  return { 'app.js': bundle.outputFiles[0].text, 'app.css': css.outputFiles[0].text, 'index.html': html };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await bundleConsole();
  const dir = path.resolve(process.argv[2] ?? here('./dist'));
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(out)) await writeFile(path.join(dir, name), text);
  console.log(
    `${dir}: ${Object.entries(out)
      .map(([name, text]) => `${name} ${Buffer.byteLength(text)} B`)
      .join(', ')}`,
  );
}
