// Ctrl-C in the terminal (SIGINT to the whole foreground process group) stops `npm start` the way
// docs/operating.md "Stopping" says: the service first, then the embedded database it started, which
// never sees the terminal's signal and is never started again while the process stops; nothing but the
// service's own lines, no stack. And Ctrl-C while starting stops what was started and says so.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { repoRoot } from './helpers/cli.js';
import { suite } from './helpers/suite.js';

const stopping = suite('Ctrl-C on npm start');

/** `node server/main.ts` as the leader of its own process group (a terminal's foreground job). */
function startInGroup(dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  for (const name of ['MONGODB_URI', 'REDIS_URL', 'SECRETS_KEY']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited, output: () => stderr };
}

async function until(condition: () => boolean, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.unreachable(`timed out waiting for ${what}: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

stopping('running: the service stops, then its embedded database; the database is not started again', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-stopping-'));
  try {
    const run = startInGroup(dataDir);
    await until(() => /listening on /.test(run.output()), 'the service to listen', run.output);
    const state = JSON.parse(await fs.readFile(path.join(dataDir, 'embedded-db.json'), 'utf8'));
    assert.ok(alive(state.childPid), 'the embedded database runs');
    process.kill(-run.child.pid!, 'SIGINT');
    const code = await run.exited;
    const out = run.output();
    assert.is(code, 0, out);
    assert.match(out, /SIGINT: finishing in-flight requests, then stopping/);
    assert.match(out, /alarm-hub: stopped/);
    assert.not.match(out, /starting it again|restarted the embedded database/, out);
    assert.not.match(out, /^\s+at /m, `no stack: ${out}`);
    await until(() => !alive(state.childPid), 'the embedded database to stop', run.output);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

stopping('while starting: it says so, stops what it started and ends with 130', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-stopping-'));
  try {
    const run = startInGroup(dataDir);
    // The configuration is printed before anything is started; the signal comes while the rest starts.
    await until(() => /configuration \(environment/.test(run.output()), 'the start to begin', run.output);
    process.kill(-run.child.pid!, 'SIGINT');
    const code = await run.exited;
    const out = run.output();
    // The signal comes while the database or the service starts (seconds); should this machine have
    // been faster, it is a stop of the running service, which must be as clean.
    const started = /listening on /.test(out);
    assert.is(code, started ? 0 : 130, out);
    assert.match(out, started ? /SIGINT: finishing in-flight requests/ : /SIGINT while starting: stopping/);
    assert.match(out, /alarm-hub: stopped/);
    assert.not.match(out, /^\s+at /m, `no stack: ${out}`);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

stopping.run();
