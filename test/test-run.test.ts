// The test runner itself (test/run.ts): a file that never finishes is stopped and counts as failed
// after TEST_FILE_TIMEOUT_S, the next file still runs, a failing before() hook's error is shown, and
// the run ends with its "N passed, N failed" line.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { repoRoot } from './helpers/cli.js';

/** Runs test/run.ts over a folder holding `files` (name → source); its output and exit code. */
async function runOver(
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ stdout: string; code: number | null }> {
  // Inside the checkout (git-ignored .tmp/), so that the files find uvu in node_modules.
  await fs.mkdir(path.join(repoRoot, '.tmp'), { recursive: true });
  const dir = await fs.mkdtemp(path.join(repoRoot, '.tmp', 'runner-'));
  try {
    for (const [name, source] of Object.entries(files)) await fs.writeFile(path.join(dir, name), source);
    // The run's database is reused (TEST_MONGODB_URI is set by the outer run).
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/run.ts'], {
      cwd: repoRoot,
      env: { ...process.env, TEST_ROOT: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    return { stdout, code };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const suiteModule = JSON.stringify(pathToFileURL(path.join(repoRoot, 'test/helpers/suite.ts')).href);

test('a hanging test file is stopped, counts as one failure, and the run still ends with its summary line', async () => {
  const { stdout, code } = await runOver(
    {
      'a-hangs.test.ts':
        `import { test } from ${suiteModule};\ntest('never ends', () => new Promise(() => setInterval(() ` +
        `=> {}, 1_000)));\ntest.run();\n`,
      'b-passes.test.ts':
        `import { test } from ${suiteModule};\nimport * as assert from 'uvu/assert';\ntest('passes', ` +
        `() => assert.ok(true));\ntest.run();\n`,
    },
    { TEST_FILE_TIMEOUT_S: '10' },
  );
  assert.is(stdout.trim().split('\n').at(-1), '1 passed, 1 failed', stdout);
  assert.is(code, 1);
  assert.match(stdout, /a-hangs\.test\.ts: not finished after 10 s/);
  assert.match(stdout, /b-passes\.test\.ts/);
});

test("a failing before() hook's error is shown with its suite, and the suite's tests count as failed", async () => {
  const { stdout, code } = await runOver({
    'set-up.test.ts':
      `import { suite } from ${suiteModule};\nimport * as assert from 'uvu/assert';\n` +
      `const s = suite('broken set-up');\ns.before(() => { throw new Error('the fixture database said no'); });\n` +
      `s('one', () => assert.ok(true));\ns('two', () => assert.ok(true));\ns.run();\n`,
  });
  assert.is(stdout.trim().split('\n').at(-1), '0 passed, 2 failed', stdout);
  assert.is(code, 1);
  assert.match(stdout, /broken set-up: before\(\) failed[^\n]*\n[^\n]*the fixture database said no/);
});

test('a file whose tests are done but that keeps a handle open is stopped after its summary, its tests counted', async () => {
  const { stdout, code } = await runOver(
    {
      'keeps-a-timer.test.ts':
        `import { test } from ${suiteModule};\nimport * as assert from 'uvu/assert';\n` +
        `test('passes and leaves a timer', () => { setInterval(() => {}, 1_000); assert.ok(true); });\ntest.run();\n`,
    },
    { TEST_FILE_TIMEOUT_S: '600' },
  );
  assert.is(stdout.trim().split('\n').at(-1), '1 passed, 0 failed', stdout);
  assert.is(code, 0);
  assert.match(stdout, /still running 5 s after its summary: stopped/);
});

test('a file that crashes before uvu sums up counts as one failure', async () => {
  const { stdout, code } = await runOver({
    'crashes.test.ts': `import { test } from ${suiteModule};\ntest('exits', () => process.exit(3));\ntest.run();\n`,
  });
  assert.is(stdout.trim().split('\n').at(-1), '0 passed, 1 failed', stdout);
  assert.is(code, 1);
  assert.match(stdout, /crashes\.test\.ts: ended \(exit code 3\) without uvu's summary/);
});

test.run();
