// Runs every test file under test/ with uvu against one real database for the whole run, and ends
// with the line CI reads: "N passed, N failed".
//
// Database: TEST_MONGODB_URI when set, else the launcher's order (mongod on PATH, embedded FerretDB)
// in a fresh temporary data directory. Redis: REDIS_URL, else 127.0.0.1:6379.
//
// A file that has not finished after TEST_FILE_TIMEOUT_S seconds (default 900) counts as one failure
// and the run goes on with the next file, so a hanging test still ends in the "N passed, N failed" line.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchDatabase } from '../server/db/launcher.js';
import { missingPrerequisites } from './preflight.js';

type Result = [errors: string | true, passed: number, skipped: number, total: number];
type Queue = Array<Array<string | null | (() => Promise<Result>)>>;

// TEST_ROOT: another folder of test files (the runner's own test uses one).
const root = process.env.TEST_ROOT ? path.resolve(process.env.TEST_ROOT) : path.dirname(fileURLToPath(import.meta.url));
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_S || 900) * 1000;
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;

async function findTests(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'helpers') found.push(...(await findTests(full)));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(full);
  }
  return found.sort();
}

process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
// The filter sees the path inside the checkout (test/hub.test.ts), not where the checkout lives.
const files = (await findTests(root)).filter((f) => !filter || filter.test(path.relative(path.dirname(root), f)));
const missing = await missingPrerequisites(files, process.env.REDIS_URL, Boolean(process.env.TEST_MONGODB_URI));
if (missing.length) {
  for (const line of missing) process.stdout.write(`[test] missing: ${line}\n`);
  process.stdout.write(`0 passed, ${files.length} failed (nothing ran: the machine lacks the above; \`bash .ci/run\` installs all of it on Debian)\n`);
  process.exit(1);
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-test-'));
const database = await launchDatabase({
  uri: process.env.TEST_MONGODB_URI,
  dataDir,
  say: (line) => process.stdout.write(`[test] ${line}\n`),
});
process.env.TEST_MONGODB_URI = database.uri;
process.env.TEST_DATA_DIR = dataDir;
process.stdout.write(`[test] database: ${database.engine} at ${database.uri}\n`);

(globalThis as { UVU_DEFER?: number }).UVU_DEFER = 1;
const g = globalThis as unknown as { UVU_QUEUE: Queue; UVU_INDEX: number };
await import('uvu');
for (const [index, file] of files.entries()) {
  g.UVU_INDEX = index;
  g.UVU_QUEUE.push([path.relative(path.dirname(root), file)]);
  await import(pathToFileURL(file).href);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const started = Date.now();
for (const group of g.UVU_QUEUE) {
  const name = group.shift();
  if (typeof name === 'string') process.stdout.write(`\n${name}\n`);
  const deadline = Date.now() + fileTimeoutMs;
  for (const runSuite of group as Array<() => Promise<Result>>) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))));
    const result = await Promise.race([runSuite(), late]);
    clearTimeout(timer);
    if (!result) {
      // The hanging test keeps whatever it holds; the run only stops waiting for it.
      process.stdout.write(`\n✘ ${name}: not finished after ${fileTimeoutMs / 1000} s (TEST_FILE_TIMEOUT_S); counted as 1 failed, its remaining suites skipped\n`);
      failed += 1;
      break;
    }
    const [errors, ran, skip, total] = result;
    passed += ran;
    failed += total - ran;
    skipped += skip;
    if (errors !== true) process.stdout.write(`\n${errors}\n`);
  }
}

// A hung test may hold the database: do not wait for it forever.
await Promise.race([database.stop(), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
await fs.rm(dataDir, { recursive: true, force: true });
process.stdout.write(`\nduration: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
