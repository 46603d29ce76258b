// The README's quick start for real: the service on its own embedded database in a fresh data
// directory, the admin command reusing that database, and a clean stop on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { repoRoot, runAdmin } from './helpers/cli.js';
import { request } from './helpers/http.js';

interface Ctx {
  dataDir: string;
  child: ChildProcess | null;
  stderr: string;
  url: string;
  token: string;
}

const quickstart = suite<Ctx>('quick start: npm start and the admin command on one data directory', {} as Ctx);

/** The environment of a newcomer: no database, Redis or port settings of the test run. */
function newcomerEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['MONGODB_URI', 'REDIS_URL', 'HOST', 'TEST_MONGODB_URI']) delete env[name];
  return env;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

quickstart.before(async (ctx) => {
  ctx.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-quickstart-'));
  ctx.child = null;
  ctx.stderr = '';
});

quickstart.after(async (ctx) => {
  if (ctx.child && ctx.child.exitCode === null && ctx.child.signalCode === null) {
    ctx.child.kill('SIGKILL');
    await exited(ctx.child);
  }
  await fs.rm(ctx.dataDir, { recursive: true, force: true });
});

quickstart('the service starts without MONGODB_URI, prints its real port and answers /readyz 200', async (ctx) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: newcomerEnv(ctx.dataDir),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  ctx.child = child;
  child.stderr!.setEncoding('utf8');
  const port = await within(
    new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (d: string) => {
        ctx.stderr += d;
        const found = /listening on http:\/\/[^:\s]+:(\d+)/.exec(ctx.stderr);
        if (found) resolve(Number(found[1]));
      });
      child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${ctx.stderr}`)));
    }),
    90_000,
    'start-up',
  );
  assert.ok(port > 0, 'PORT=0 prints the port actually bound');
  assert.match(ctx.stderr, 'embedded', 'the default database is the embedded one');
  // The hint for the first organization follows the listening line.
  const hinted = Date.now() + 30_000;
  while (!ctx.stderr.includes('apikey create') && Date.now() < hinted) await new Promise((r) => setTimeout(r, 50));
  assert.match(ctx.stderr, 'admin -- org create', 'the first admin command is printed');
  ctx.url = `http://127.0.0.1:${port}`;
  const ready = await request(ctx.url, 'GET', '/readyz');
  assert.is(ready.status, 200, JSON.stringify(ready.body));
  assert.is(ready.body.checks.mongodb.ok, true);
  assert.ok(existsSync(path.join(ctx.dataDir, 'embedded-db.json')), 'the running database is announced in DATA_DIR');
});

quickstart(
  'the admin command on the same DATA_DIR reuses the running database and creates an organization',
  async (ctx) => {
    assert.ok(ctx.url, 'the service is running');
    const env: Record<string, string | undefined> = {
      DATA_DIR: ctx.dataDir,
      MONGODB_URI: undefined,
      TEST_MONGODB_URI: undefined,
      REDIS_URL: undefined,
    };
    const org = await runAdmin(['org', 'create', '--name', 'Quick Start FD'], env);
    assert.is(org.code, 0, org.stdout + org.stderr);
    assert.equal(org.json, { id: 1, name: 'Quick Start FD' });
    assert.match(org.stderr, 'reused');
    assert.match(org.stderr, `in DATA_DIR ${ctx.dataDir}\n`, 'it names the data directory whose database it used');
    const key = await runAdmin(['apikey', 'create', '--org', '1', '--name', 'station'], env);
    assert.is(key.code, 0, key.stdout + key.stderr);
    const list = await request(ctx.url, 'GET', '/api/v1/monitor?organization=1', { auth: { apiKey: key.json.token } });
    assert.is(list.status, 200, 'the token created by the admin command works against the running service');
    assert.equal(list.body, []);
    // The README's curl example, as sent there.
    const created = await request(ctx.url, 'POST', '/api/v1/monitor', {
      auth: { apiKey: key.json.token },
      body: '{"name":"Wache Nord","organizationID":1,"configuration":{"address":"Hauptstr. 1","latitude":50.77,"longitude":6.08}}',
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.is(created.body.id, 1);
    ctx.token = key.json.token;
  },
);

quickstart("the README's alarm, run by bash as printed there, starts now (not on a fixed day)", async (ctx) => {
  assert.ok(ctx.token, 'the quick start created a key');
  const readme = await fs.readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const block = /# then raise an alarm:\n([\s\S]*?)\ncurl -s -X PATCH/.exec(readme);
  assert.ok(block, "the quick start's alarm command is in the README");
  const command = block[1].replaceAll('ahk_…', ctx.token).replaceAll('localhost:3000', ctx.url.replace('http://', ''));
  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
  assert.is(run.code, 0, run.out);
  assert.match(run.out, 'saved (version');
  const data = await request(ctx.url, 'GET', '/api/v1/monitor/1/data', { auth: { apiKey: ctx.token } });
  assert.is(data.status, 200, JSON.stringify(data.body));
  const started = Date.parse(data.body.alarmData.eventStartDate);
  // Seconds precision, sent moments ago: within a minute of the clock as read now.
  assert.ok(
    Math.abs(Date.now() - started) < 60_000,
    `eventStartDate ${data.body.alarmData.eventStartDate} is the time the command ran`,
  );
});

quickstart('SIGTERM stops the service with exit code 0 within 15 s and stops its embedded database', async (ctx) => {
  const child = ctx.child!;
  assert.ok(child && child.exitCode === null, 'the service is running');
  child.kill('SIGTERM');
  const code = await within(exited(child), 15_000, 'shutdown');
  assert.is(code, 0, ctx.stderr);
  assert.match(ctx.stderr, 'SIGTERM');
  assert.not.ok(existsSync(path.join(ctx.dataDir, 'embedded-db.json')), 'the database announcement is removed');
});

quickstart.run();
