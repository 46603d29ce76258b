// Builds the station display in memory with esbuild; the server calls this once at boot and serves the
// three results itself (/display, /display/app.js, /display/app.css). `tsx display-client/build.ts`
// writes the same files to display-client/dist/ for a look without the server.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** The built display client: a minified IIFE bundle, minified CSS and the page that loads both. */
export async function buildDisplayClient(): Promise<{ 'app.js': string; 'app.css': string; 'index.html': string }> {
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
    build({ entryPoints: [here('./styles.css')], bundle: true, minify: true, write: false, target: 'chrome105', logLevel: 'silent' }),
    readFile(here('./index.html'), 'utf8'),
  ]);
  return { 'app.js': bundle.outputFiles[0].text, 'app.css': css.outputFiles[0].text, 'index.html': html };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildDisplayClient();
  await mkdir(here('./dist'), { recursive: true });
  for (const [name, text] of Object.entries(out)) await writeFile(here(`./dist/${name}`), text);
  console.log(Object.entries(out).map(([name, text]) => `${name} ${Buffer.byteLength(text)} B`).join(', '));
}
