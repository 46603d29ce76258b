// Runs every test file under test/ with uvu against one real database server for the whole run (a
// database of its own on it for each file), and ends with the line CI reads: "N passed, N failed".
//
// Database: TEST_MONGODB_URI when set, else the launcher's order (mongod on PATH, embedded FerretDB)
// in a fresh temporary data directory. Redis: REDIS_URL, else 127.0.0.1:6379.
//
// Each file runs in its own process, as uvu runs a file on its own; the runner adds up the counts of
// uvu's summaries. A file that has not finished after TEST_FILE_TIMEOUT_S seconds (default 900) is
// stopped and counts as one failure, and the run goes on with the next file, so a hanging test still
// ends in the "N passed, N failed" line.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchDatabase } from '../server/db/launcher.js';
import { missingPrerequisites } from './preflight.js';

// TEST_ROOT: another folder of test files (the runner's own test uses one).
const root = process.env.TEST_ROOT ? path.resolve(process.env.TEST_ROOT) : path.dirname(fileURLToPath(import.meta.url));
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_S || 900) * 1000;
// How long a file may keep running after uvu's summary (a handle left open) before it is stopped.
const AFTER_SUMMARY_MS = 5_000;
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
  process.stdout.write(
    `0 passed, ${files.length} failed (nothing ran: the machine lacks the above; \`bash .ci/run\` ` +
      `installs all of it on Debian)\n`,
  );
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

let passed = 0;
let failed = 0;
let skipped = 0;
// What failed, told again at the end (above the duration and the counts): CI's record of a run may keep
// only its start and end.
const recap: string[] = [];
// Each file's time from its start to its end, for the slowest files named at the end of the run.
const took: Array<{ name: string; seconds: number }> = [];
const started = Date.now();
const running = new Set<ChildProcess>();
// The files run in their own process group (below), which a Ctrl-C at the terminal does not reach.
process.once('SIGINT', () => {
  for (const child of running) killGroup(child);
  process.exit(130);
});

// Each file has a database of its own on the one server (its name from its place in the run), so that
// no file sees what another left, and files can run side by side: TEST_JOBS of them at once (default
// 1). With more than one, a file's output is printed whole when it ends.
const jobs = Math.max(1, Number(process.env.TEST_JOBS || 1));
// The URI is split by hand, not with URL: a replica set's names several hosts ("h1:1,h2:2"), which URL
// refuses. The database credentials are checked against stays the URI's (its database, or admin).
function databaseOf(index: number, name: string): string {
  const parts = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/([^?]*))?(?:\?(.*))?$/.exec(database.uri);
  if (!parts) throw new Error(`TEST_MONGODB_URI is not a mongodb:// URI: ${database.uri}`);
  const [, hosts, named = '', query = ''] = parts;
  const params = new URLSearchParams(query);
  if (hosts.includes('@') && !params.has('authSource'))
    params.set('authSource', named ? decodeURIComponent(named) : 'admin');
  const base = path.basename(name, '.test.ts').replace(/[^A-Za-z0-9_-]/g, '_');
  const rest = params.toString();
  return `${hosts}/${`t${String(index).padStart(3, '0')}_${base}`.slice(0, 59)}${rest ? `?${rest}` : ''}`;
}

async function runOne(file: string, index: number): Promise<void> {
  const name = path.relative(path.dirname(root), file);
  const lines: string[] = [];
  const say = (text: string) => (jobs === 1 ? process.stdout.write(text) : lines.push(text));
  say(`\n${name}\n`);
  let outcome: Outcome;
  const began = Date.now();
  try {
    outcome = await runFile(file, databaseOf(index, name), say);
  } catch (err) {
    // The runner's own failure for this file (its database, its process): one failure, and the run goes on.
    outcome = { kind: 'ended', exit: `not run: ${(err as Error).message}`, plain: '', errTail: '', summary: null };
  }
  const seconds = (Date.now() - began) / 1000;
  took.push({ name, seconds });
  say(`(${name}: ${seconds.toFixed(1)} s)\n`);
  const failedBefore = failed;
  if (outcome.kind === 'late') {
    say(
      `\n✘ ${name}: not finished after ${fileTimeoutMs / 1000} s (TEST_FILE_TIMEOUT_S); stopped and ` +
        `counted as 1 failed\n`,
    );
    failed += 1;
  } else if (!outcome.summary) {
    say(`\n✘ ${name}: ended (${outcome.exit}) without uvu's summary; counted as 1 failed\n`);
    failed += 1;
  } else {
    const { total, passed: ran, skipped: skip } = outcome.summary;
    passed += ran;
    failed += total - ran;
    skipped += skip;
    if (outcome.exit !== 'exit code 0' && total === ran) {
      say(`\n✘ ${name}: its tests passed, but it ended with ${outcome.exit}; counted as 1 failed\n`);
      failed += 1;
    }
  }
  if (failed > failedBefore) recap.push(recapOf(name, outcome));
  if (lines.length) process.stdout.write(lines.join(''));
}

/** The file's name and uvu's FAIL blocks (the test's name and the assertion), shortened. */
function recapOf(name: string, outcome: Outcome): string {
  if (outcome.kind === 'late') return `✘ ${name}: not finished in time`;
  const blocks = [...outcome.plain.matchAll(/^\s*FAIL\s[\s\S]*?(?=^\s*FAIL\s|^\s*Total:|(?![\s\S]))/gm)].map((match) =>
    match[0].trimEnd().split('\n').slice(0, 25).join('\n'),
  );
  const told = blocks.length
    ? blocks.join('\n')
    : `(ended ${outcome.exit}; no FAIL block in its output)${outcome.errTail ? `; its last errors:\n${outcome.errTail}` : ''}`;
  return `✘ ${name}\n${told.slice(0, 6000)}`;
}

const queue = files.map((file, index) => ({ file, index }));
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runOne(next.file, next.index);
  }),
);

type Outcome =
  | { kind: 'late' }
  | {
      kind: 'ended';
      exit: string;
      plain: string;
      /** The end of what the file wrote to stderr (a crash's stack). */
      errTail: string;
      summary: { total: number; passed: number; skipped: number } | null;
    };

/**
 * Runs one test file as uvu runs it on its own (node --import tsx FILE: the file's test.run() starts
 * uvu), in a process group of its own so that a file that does not finish is stopped with everything
 * it started, and reads the counts from uvu's summary ("Total: / Passed: / Skipped:").
 */
async function runFile(file: string, dbUri: string, say: (text: string) => void): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: path.dirname(root),
    detached: true,
    env: { ...process.env, TEST_MONGODB_URI: dbUri },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let errTail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (jobs === 1) process.stderr.write(chunk);
    else say(chunk.toString());
    errTail = (errTail + chunk.toString()).slice(-3000);
  });
  let output = '';
  let summed: NodeJS.Timeout | undefined;
  let kept = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    say(chunk.toString());
    output += chunk.toString();
    // uvu has summed up (its last line is the duration) but the file still holds a handle open (a
    // socket, a timer): its tests are over, so it is stopped after a grace rather than at the timeout.
    if (!summed && /Total:[\s\S]*Duration:/.test(output)) {
      summed = setTimeout(() => {
        kept = true;
        killGroup(child);
      }, AFTER_SUMMARY_MS);
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), fileTimeoutMs)));
  const ended = new Promise<string>((resolve) =>
    child.once('close', (code, signal) =>
      resolve(kept ? 'exit code 0' : signal ? `signal ${signal}` : `exit code ${code}`),
    ),
  );
  const exit = await Promise.race([ended, late]);
  clearTimeout(timer);
  clearTimeout(summed);
  if (kept) say(`(still running ${AFTER_SUMMARY_MS / 1000} s after its summary: stopped)\n`);
  // Whatever the file started and left behind (a service, a browser) goes with it.
  killGroup(child);
  running.delete(child);
  if (exit === 'late') return { kind: 'late' };
  const plain = uncoloured(output);
  const count = (label: string) => Number(new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, 'm').exec(plain)?.[1] ?? NaN);
  const summary = { total: count('Total'), passed: count('Passed'), skipped: count('Skipped') };
  return {
    kind: 'ended',
    exit,
    plain,
    errTail: uncoloured(errTail).trim(),
    summary: Number.isNaN(summary.total + summary.passed) ? null : { ...summary, skipped: summary.skipped || 0 },
  };
}

/** Text without a terminal's colours (uvu colours its summary, a crash its stack). */
function uncoloured(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences themselves
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group has ended already.
  }
}

// A hung test may hold the database: do not wait for it forever.
await Promise.race([database.stop(), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
await fs.rm(dataDir, { recursive: true, force: true });
const slowest = took.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
if (took.length > 1)
  process.stdout.write(
    `\nslowest files:\n${slowest.map((t) => `  ${t.seconds.toFixed(1).padStart(6)} s  ${t.name}`).join('\n')}\n`,
  );
if (recap.length) process.stdout.write(`\nfailed:\n${recap.join('\n\n')}\n`);
process.stdout.write(`\nduration: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
