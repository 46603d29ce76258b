// Builds the station display in memory with esbuild; the server calls this once at boot and serves the
// three results itself (/display, /display/app.js, /display/app.css). The production build (`npm run
// build`) writes them beside the compiled server (dist/display-client/assets/), which then reads them
// instead: esbuild is a build tool, not needed at run time. `tsx display-client/build.ts DIR` writes them
// to DIR (default display-client/dist/) for a look without the server.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Built = { 'app.js': string; 'app.css': string; 'index.html': string };

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const FILES = ['app.js', 'app.css', 'index.html'] as const;

/** The display client: the prebuilt assets when there are some (production), else built now. */
export async function buildDisplayClient(): Promise<Built> {
  const prebuilt = await Promise.all(FILES.map((f) => readFile(here(`./assets/${f}`), 'utf8').catch(() => null)));
  if (prebuilt.every((text) => text !== null))
    return Object.fromEntries(FILES.map((f, i) => [f, prebuilt[i]])) as Built;
  return bundleDisplayClient();
}

/** A minified IIFE bundle, minified CSS and the page that loads both, from the sources. */
export async function bundleDisplayClient(): Promise<Built> {
  const { build } = await import('esbuild');
  const [bundle, css, html] = await Promise.all([
    build({
      entryPoints: [here('./src/main.ts')],
      bundle: true,
      minify: true,
      write: false,
      target: 'es2020',
      format: 'iife',
      platform: 'browser',
      legalComments: 'none',
      logLevel: 'silent',
    }),
    // styles.css @imports the files of styles/: bundled into one stylesheet.
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
  const out = await bundleDisplayClient();
  const dir = path.resolve(process.argv[2] ?? here('./dist'));
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(out)) await writeFile(path.join(dir, name), text);
  console.log(
    `${dir}: ${Object.entries(out)
      .map(([name, text]) => `${name} ${Buffer.byteLength(text)} B`)
      .join(', ')}`,
  );
}
