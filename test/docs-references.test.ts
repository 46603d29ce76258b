// The repo explains itself: a comment or a document that sends the reader to a heading of a document
// (`docs/hub.md "Protocol"`, `README "Known limits"`, a link `docs/api.md#errors`) finds that heading,
// and a file path a comment names exists. Renaming a heading without its references fails here.
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { test } from './helpers/suite.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['server', 'common', 'display-client', 'schemas', 'test', 'bench', 'tools', 'docs', 'deploy'];
const TOP = ['README.md', 'RELIABILITY.md', 'BENCHMARKS.md', 'eslint.config.ts', 'Dockerfile'];
const SKIP = new Set(['node_modules', 'dist', 'bin', 'reference', 'screenshots', 'results']);

async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) found.push(...(await files(rel)));
    } else if (/\.(ts|mjs|js|md|css|html|yaml|conf)$/.test(entry.name)) found.push(rel);
  }
  return found;
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const headingsOf = new Map<string, Promise<{ titles: Set<string>; anchors: Set<string> }>>();
function headings(doc: string) {
  let known = headingsOf.get(doc);
  if (!known) {
    known = readFile(path.join(root, doc), 'utf8').then((text) => {
      const titles = new Set<string>();
      const anchors = new Set<string>();
      const seen = new Map<string, number>();
      let fenced = false;
      for (const line of text.split('\n')) {
        if (line.startsWith('```')) fenced = !fenced;
        const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
        if (!m) continue;
        titles.add(m[1]);
        // "Bad input (`test/reliability/bad-input.test.ts`)" is named "Bad input".
        titles.add(m[1].replace(/\s+\([^)]*\)$/, ''));
        const base = slug(m[1]);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        anchors.add(n === 0 ? base : `${base}-${n}`);
      }
      return { titles, anchors };
    });
    headingsOf.set(doc, known);
  }
  return known;
}

const DOC = String.raw`(docs/[\w-]+\.md|README(?:\.md)?|RELIABILITY\.md|BENCHMARKS\.md)`;

test('every heading a comment or document names exists in the document it names', async () => {
  const all = [...(await Promise.all(SOURCES.map(files))).flat(), ...TOP];
  const missing: string[] = [];
  let checked = 0;
  for (const file of all) {
    const text = await readFile(path.join(root, file), 'utf8');
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      const where = `${file}:${i + 1}`;
      // docs/hub.md "Protocol", (docs/operating.md, "Backups"), README "Known limits"
      for (const m of line.matchAll(new RegExp(`${DOC},? "([^"]+)"`, 'g'))) {
        const doc = m[1].startsWith('README') ? 'README.md' : m[1];
        const title = m[2].replace(/\.$/, '');
        checked++;
        if (!existsSync(path.join(root, doc))) missing.push(`${where}: ${doc} does not exist`);
        else if (!(await headings(doc)).titles.has(title)) missing.push(`${where}: ${doc} has no heading "${title}"`);
      }
      // [text](docs/api.md#errors), and [text](#anchor) inside a document
      for (const m of line.matchAll(/\]\((?:\.\.\/)*((?:docs\/)?[\w-]+\.md)?#([^)\s]+)\)/g)) {
        const doc = m[1]
          ? path.normalize(path.join(path.dirname(file), m[1])).replace(/^(\.\.\/)+/, '')
          : file.endsWith('.md')
            ? file
            : null;
        if (!doc || !doc.endsWith('.md')) continue;
        const target = existsSync(path.join(root, doc)) ? doc : m[1]!;
        checked++;
        if (!existsSync(path.join(root, target))) missing.push(`${where}: ${target} does not exist`);
        else if (!(await headings(target)).anchors.has(decodeURIComponent(m[2])))
          missing.push(`${where}: ${target} has no heading with the anchor #${m[2]}`);
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} references found: the patterns no longer match the tree`);
  assert.equal(missing, []);
});

test('every file a comment in server/ names as server/…, common/… or docs/… exists', async () => {
  const missing: string[] = [];
  for (const file of await files('server')) {
    const text = await readFile(path.join(root, file), 'utf8');
    for (const m of text.matchAll(
      /(?<![\w/.-])((?:server|common|docs|schemas|display-client|tools)\/[\w./-]+\.(?:ts|md))/g,
    )) {
      if (!existsSync(path.join(root, m[1]))) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.equal(missing, []);
});

test.run();
