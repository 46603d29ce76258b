// Builds the members' app (docs/members-app.md) in memory with the console's helpers (console/build.ts):
// the page's script, the service worker's script, the stylesheet, the page and the manifest; the icons
// are the PNGs rendered once into icons/ (icons/render.ts). The server calls this once at boot and
// serves every file under /app; `npm run build` writes them to dist/members-app/assets/, which the
// compiled server reads instead (esbuild is a build tool, not needed at run time).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleScript, bundleStyles, readPrebuilt } from '../console/build.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const TEXTS = ['app.js', 'sw.js', 'app.css', 'index.html', 'manifest.webmanifest'] as const;
export const ICONS = ['icon-192.png', 'icon-512.png', 'icon-maskable-512.png', 'badge-96.png'] as const;

export type Text = (typeof TEXTS)[number];
export type Icon = (typeof ICONS)[number];
export interface BuiltApp {
  texts: Record<Text, string>;
  icons: Record<Icon, Buffer>;
}

/** The dark of the app's bars, the colour the phone gives its status bar and splash screen. */
export const THEME_COLOUR = '#12161c';

/** The web app manifest: installable from /app, standalone, German first (docs/members-app.md). */
export function manifest(): string {
  return JSON.stringify({
    id: '/app',
    name: 'alarm-hub Alarm',
    short_name: 'Alarm',
    description: 'Alarme der Feuerwehr auf dem Handy: Rückmeldung, Verfügbarkeit, Einsätze.',
    lang: 'de',
    dir: 'ltr',
    start_url: '/app',
    scope: '/app',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#0b0f14',
    theme_color: THEME_COLOUR,
    categories: ['utilities'],
    icons: [
      { src: '/app/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/app/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/app/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  });
}

async function readIcons(dir: string): Promise<Record<Icon, Buffer> | null> {
  const found = await Promise.all(ICONS.map((f) => readFile(path.join(dir, f)).catch(() => null)));
  if (found.some((icon) => icon === null)) return null;
  return Object.fromEntries(ICONS.map((f, i) => [f, found[i]])) as Record<Icon, Buffer>;
}

/** The app: the prebuilt assets when there are some (production), else built now. */
export async function buildMembersApp(): Promise<BuiltApp> {
  const [texts, icons] = await Promise.all([readPrebuilt(here('./assets'), TEXTS), readIcons(here('./assets'))]);
  if (texts && icons) return { texts, icons };
  return bundleMembersApp();
}

/** Everything from the sources. */
export async function bundleMembersApp(): Promise<BuiltApp> {
  const [script, worker, css, html, icons] = await Promise.all([
    bundleScript(here('./src/main.tsx')),
    bundleScript(here('./src/sw.ts')),
    bundleStyles(here('./styles.css')),
    readFile(here('./index.html'), 'utf8'),
    readIcons(here('./icons')),
  ]);
  if (!icons) throw new Error(`members-app/icons/ lacks one of ${ICONS.join(', ')}: run members-app/icons/render.ts`);
  return {
    texts: {
      'app.js': script,
      'sw.js': worker,
      'app.css': css,
      'index.html': html,
      'manifest.webmanifest': manifest(),
    },
    icons,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await bundleMembersApp();
  const dir = path.resolve(process.argv[2] ?? here('./dist'));
  await mkdir(dir, { recursive: true });
  const files: Array<[string, string | Buffer]> = [...Object.entries(out.texts), ...Object.entries(out.icons)];
  for (const [name, body] of files) await writeFile(path.join(dir, name), body);
  console.log(`${dir}: ${files.map(([name, body]) => `${name} ${Buffer.byteLength(body)} B`).join(', ')}`);
}
