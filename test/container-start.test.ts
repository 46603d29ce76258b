// The container image starts (issue 19): the compiled service (`npm run build`'s output, as the
// Dockerfile copies it) runs as an unprivileged user in an application directory it cannot write, with
// only DATA_DIR writable and no SECRETS_KEY — it makes its key file there, answers /readyz and stops
// cleanly on SIGTERM; without a writable DATA_DIR it says so in one sentence. No image is built here
// (no container engine on the build machines): the Dockerfile's layout is read and reproduced.
//
// Cost: the service is compiled once per run with tsc and the display, console and app builds into a temporary
// directory (about 15 s on an idle machine); `dist/` of the checkout is not used, as it may be stale.
// Run as root (as CI does), the service runs as `nobody` through setpriv; run as anyone else, as that
// user with the application directory made read-only.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { request } from './helpers/http.js';
import { repoRoot } from './helpers/processes.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  /** The image's /app: package.json, node_modules, dist — root's, read-only to the service. */
  appDir: string;
  /** The image's volume /data: the service's own. */
  dataDir: string;
}

const image = suite<Ctx>('container: the compiled service as an unprivileged user', {} as Ctx);

const root = process.getuid?.() === 0;
// nobody/nogroup on Debian; the ids are read, not assumed.
const runAs = root
  ? {
      uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })),
    }
  : null;

/** `argv` as the service's user: nobody through setpriv when the tests run as root. */
const asServiceUser = (argv: string[]) =>
  root ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...argv] : argv;

/** The final stage of the Dockerfile: what the running container gets. */
function finalStage(): string {
  const text = fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  return text.slice(text.lastIndexOf('\nFROM '));
}

image.before((ctx) => {
  ctx.appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alarm-hub-app-'));
  ctx.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alarm-hub-volume-'));
  const build = (argv: string[]) => {
    const run = spawnSync(process.execPath, argv, { cwd: repoRoot, encoding: 'utf8' });
    assert.is(run.status, 0, `${argv.join(' ')}: ${run.stdout}${run.stderr}`);
  };
  // What `npm run build` does, into the temporary application directory.
  build([
    path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
    '-p',
    'tsconfig.build.json',
    '--outDir',
    path.join(ctx.appDir, 'dist'),
  ]);
  build(['--import', 'tsx', 'display-client/build.ts', path.join(ctx.appDir, 'dist/display-client/assets')]);
  build(['--import', 'tsx', 'console/build.ts', path.join(ctx.appDir, 'dist/console/assets')]);
  build(['--import', 'tsx', 'members-app/build.ts', path.join(ctx.appDir, 'dist/members-app/assets')]);
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(ctx.appDir, 'package.json'));
  // A copy (hard links where the file system allows, half a second), not a link into the checkout: the
  // service's user may not reach a checkout in a private directory (a clone in `mktemp -d`, mode 0700).
  const modules = fs.realpathSync(path.join(repoRoot, 'node_modules'));
  const copy = spawnSync('cp', ['-al', modules, path.join(ctx.appDir, 'node_modules')]);
  if (copy.status !== 0) fs.cpSync(modules, path.join(ctx.appDir, 'node_modules'), { recursive: true });
  if (runAs) {
    fs.chmodSync(ctx.appDir, 0o755);
    fs.chownSync(ctx.dataDir, runAs.uid, runAs.gid);
  } else {
    for (const dir of [ctx.appDir, path.join(ctx.appDir, 'dist')]) fs.chmodSync(dir, 0o555);
  }
});

image.after((ctx) => {
  if (!runAs) for (const dir of [ctx.appDir, path.join(ctx.appDir, 'dist')]) fs.chmodSync(dir, 0o755);
  fs.rmSync(ctx.appDir, { recursive: true, force: true });
  fs.rmSync(ctx.dataDir, { recursive: true, force: true });
});

/**
 * `node dist/server/main.js` in the application directory as the service's user, with nothing of this process's
 * environment.
 */
function startCompiled(ctx: Ctx, env: Record<string, string>) {
  const [command, ...args] = asServiceUser([process.execPath, 'dist/server/main.js']);
  const child = spawn(command, args, {
    cwd: ctx.appDir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MONGODB_URI: testDbUri(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

image('the Dockerfile runs the service as node with DATA_DIR on a volume of its own outside the read-only /app', () => {
  const stage = finalStage();
  const dataDir = /^ENV .*\bDATA_DIR=(\S+)/m.exec(stage)?.[1];
  assert.ok(dataDir, 'the final stage sets DATA_DIR');
  const workdir = /^WORKDIR (\S+)/m.exec(stage)![1];
  assert.not.ok(
    dataDir!.startsWith(`${workdir}/`) || dataDir === workdir,
    `DATA_DIR ${dataDir} is outside the application directory ${workdir}`,
  );
  assert.match(stage, new RegExp(`^VOLUME \\["${dataDir}"\\]`, 'm'), 'DATA_DIR is a volume');
  assert.match(
    stage,
    new RegExp(`^RUN .*chown node:node ${dataDir}\\b`, 'm'),
    "the volume belongs to the service's user",
  );
  assert.match(stage, /^USER node$/m);
  assert.not.match(stage, /--chown=node/, "the application stays root's");
  assert.match(stage, /^CMD \["node", "dist\/server\/main\.js"\]$/m, 'the compiled service is what runs');
});

image(
  'as an unprivileged user, no SECRETS_KEY: it makes its key file in DATA_DIR, answers /readyz ' +
    '200 and stops with 0 on SIGTERM',
  async (ctx) => {
    // The premise: the application directory is not the service user's to write, the data directory is.
    const [command, ...args] = asServiceUser([
      'sh',
      '-c',
      `test -w "$0" || test -w "$0/dist" && exit 1; test -w "$1"`,
      ctx.appDir,
      ctx.dataDir,
    ]);
    assert.is(
      spawnSync(command, args).status,
      0,
      'the app directory is read-only and DATA_DIR writable for the service user',
    );
    const service = startCompiled(ctx, { DATA_DIR: ctx.dataDir });
    try {
      const deadline = Date.now() + 90_000;
      let port: string | undefined;
      while (!(port = /listening on http:\/\/[^:\s]+:(\d+)/.exec(service.output())?.[1])) {
        assert.is(service.child.exitCode, null, `the service exited: ${service.output()}`);
        assert.ok(Date.now() < deadline, `no listening line within 90 s: ${service.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const key = fs.statSync(path.join(ctx.dataDir, 'secrets.key'));
      assert.is(key.mode & 0o777, 0o600);
      if (runAs) assert.is(key.uid, runAs.uid, "the key file is the service user's");
      assert.match(service.output(), `integration secrets key: id `);
      assert.match(service.output(), `(key file ${path.join(ctx.dataDir, 'secrets.key')}, created now with mode 0600)`);
      const ready = await request(`http://127.0.0.1:${port}`, 'GET', '/readyz');
      assert.is(ready.status, 200, JSON.stringify(ready.body));
      assert.is(ready.body.checks.mongodb.ok, true);
      const display = await request(`http://127.0.0.1:${port}`, 'GET', '/display');
      assert.is(display.status, 200, 'the display is served from the prebuilt assets');
      service.child.kill('SIGTERM');
      assert.is(await service.exited, 0, service.output());
      assert.match(service.output(), 'SIGTERM: finishing in-flight requests, then stopping');
      assert.not.match(service.output(), /^\s+at /m, 'no stack');
      assert.equal(
        fs.readdirSync(ctx.appDir).sort(),
        ['dist', 'node_modules', 'package.json'],
        'nothing was written beside the application',
      );
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
      await service.exited;
    }
  },
);

image('DATA_DIR unset in the read-only application directory: one sentence naming DATA_DIR, exit 1', async (ctx) => {
  const service = startCompiled(ctx, {});
  assert.is(await service.exited, 1, service.output());
  const lines = service.output().split('\n').filter(Boolean);
  const appData = path.join(ctx.appDir, 'data');
  const who = runAs ? `user ${runAs.uid}` : `user ${process.getuid?.()}`;
  assert.is(
    lines.at(-1),
    `alarm-hub: cannot start: DATA_DIR ${appData} cannot be written by ${who} (EACCES: permission ` +
      `denied, mkdir '${appData}'), and it holds the secrets key file (SECRETS_KEY is unset): make ` +
      `it writable for that user or set DATA_DIR to a directory that is (the container image's is ` +
      `the volume /data)`,
  );
  assert.not.match(service.output(), /^\s+at /m, 'no stack');
  assert.not.match(service.output(), 'database:', 'nothing was started');
});

image.run();
