// Builds the staff's pages (docs/console.md) in memory with esbuild, as display-client/build.ts builds
// the display: the server calls this once at boot and serves /console/app.js, /console/app.css and the
// page; `npm run build` writes them to dist/console/assets/, which the compiled server reads instead.
// The members' app (members-app/build.ts) builds its pages with the same helpers.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Built = { 'app.js': string; 'app.css': string; 'index.html': string };

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const FILES = ['app.js', 'app.css', 'index.html'] as const;

/** The console: the prebuilt assets when there are some (production), else built now. */
export async function buildConsole(): Promise<Built> {
  return (await readPrebuilt(here('./assets'), FILES)) ?? bundleConsole();
}

/** The files `names` in `dir` when every one is there (a production build), else null. */
export async function readPrebuilt<N extends string>(
  dir: string,
  names: readonly N[],
): Promise<Record<N, string> | null> {
  const texts = await Promise.all(names.map((f) => readFile(path.join(dir, f), 'utf8').catch(() => null)));
  if (texts.some((text) => text === null)) return null;
  return Object.fromEntries(names.map((f, i) => [f, texts[i]])) as Record<N, string>;
}

/** A browser entry point (Preact's JSX compiled by esbuild) as one minified script. */
export async function bundleScript(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const bundle = await build({
    entryPoints: [entry],
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
  });
  return bundle.outputFiles[0].text;
}

/** A stylesheet with its @imports inlined, minified. */
export async function bundleStyles(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const css = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    target: 'chrome105',
    logLevel: 'silent',
  });
  return css.outputFiles[0].text;
}

/** A minified bundle (Preact's JSX compiled by esbuild), minified CSS and the page, from the sources. */
export async function bundleConsole(): Promise<Built> {
  const [script, css, html] = await Promise.all([
    bundleScript(here('./src/main.tsx')),
    bundleStyles(here('./styles.css')),
    readFile(here('./index.html'), 'utf8'),
  ]);
  return { 'app.js': script, 'app.css': css, 'index.html': html };
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
