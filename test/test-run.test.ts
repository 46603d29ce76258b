// The test runner itself (test/run.ts): a file that never finishes counts as failed after
// TEST_FILE_TIMEOUT_S, the next file still runs, and the run ends with its "N passed, N failed" line.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRoot } from './helpers/cli.js';

test('a hanging test file counts as one failure and the run still ends with its summary line', async () => {
  // Inside the checkout (git-ignored .tmp/), so that the files find uvu in node_modules.
  await fs.mkdir(path.join(repoRoot, '.tmp'), { recursive: true });
  const dir = await fs.mkdtemp(path.join(repoRoot, '.tmp', 'runner-'));
  try {
    await fs.writeFile(path.join(dir, 'a-hangs.test.ts'), "import { test } from 'uvu';\ntest('never ends', () => new Promise(() => setInterval(() => {}, 1_000)));\ntest.run();\n");
    await fs.writeFile(path.join(dir, 'b-passes.test.ts'), "import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('passes', () => assert.ok(true));\ntest.run();\n");
    // The run's database is reused (TEST_MONGODB_URI is set by the outer run).
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/run.ts'], {
      cwd: repoRoot,
      env: { ...process.env, TEST_ROOT: dir, TEST_FILE_TIMEOUT_S: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    const lines = stdout.trim().split('\n');
    assert.is(lines.at(-1), '1 passed, 1 failed', stdout);
    assert.is(code, 1);
    assert.match(stdout, /a-hangs\.test\.ts: not finished after 2 s/);
    assert.match(stdout, /b-passes\.test\.ts/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test.run();
