// What an operator reads when the service or the admin command cannot start: one line naming the
// setting and the fix, never a stack, and a non-zero exit code. Settings are checked before anything
// is started, so a bad one never waits for a database first.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { freePort } from '../server/db/launcher.js';
import { repoRoot, runAdmin } from './helpers/cli.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  dataDir: string;
}

interface Exit {
  code: number | null;
  stderr: string[];
  stdout: string;
}

const startup = suite<Ctx>('start-up errors: one sentence, the setting and the fix', {} as Ctx);

startup.before((ctx) => {
  ctx.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alarm-hub-startup-'));
});
startup.after((ctx) => {
  fs.rmSync(ctx.dataDir, { recursive: true, force: true });
});

/** Runs `npm start`'s server/main.ts with `env` over a working one until it exits (it must). */
function start(ctx: Ctx, env: Record<string, string | undefined>): Promise<Exit> {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: ctx.dataDir,
    MONGODB_URI: testDbUri(),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    REDIS_URL: undefined,
    ...env,
  };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr.split('\n').filter(Boolean) });
    });
  });
}

/** Exit code 1, no stack anywhere, exactly one "cannot start" line, and that line. */
function refusal(exit: Exit): string {
  const all = `stderr:\n${exit.stderr.join('\n')}\nstdout:\n${exit.stdout}`;
  assert.is(exit.code, 1, all);
  assert.equal(
    exit.stderr.filter((line) => !line.startsWith('alarm-hub: ')),
    [],
    `every line is the service's own: ${all}`,
  );
  assert.not.match(exit.stdout + exit.stderr.join('\n'), /^\s+at /m, `no stack: ${all}`);
  const lines = exit.stderr.filter((line) => line.startsWith('alarm-hub: cannot start: '));
  assert.is(lines.length, 1, all);
  assert.is(exit.stderr.at(-1), lines[0], 'it is the last line');
  return lines[0].slice('alarm-hub: cannot start: '.length);
}

/** The refusal of a setting checked before anything started: the only line printed. */
function soleRefusal(exit: Exit): string {
  const said = refusal(exit);
  assert.is(exit.stderr.length, 1, exit.stderr.join('\n'));
  return said;
}

startup('PORT=abc: the one line names PORT, what it must be and the default; exit 1', async (ctx) => {
  assert.is(
    soleRefusal(await start(ctx, { PORT: 'abc' })),
    'PORT must be a non-negative integer up to 65535, not "abc": correct it or unset it for the default (3000)',
  );
});

startup(
  'a malformed REDIS_URL is refused before the database is touched (which does not even answer here)',
  async (ctx) => {
    const said = soleRefusal(
      await start(ctx, { REDIS_URL: 'redis://cache:6379:1', MONGODB_URI: `mongodb://127.0.0.1:${await freePort()}/x` }),
    );
    assert.is(
      said,
      'REDIS_URL must be a redis:// or rediss:// URL (redis://host:6379/0), or redis-cluster://host:port,host:port, ' +
        'not "redis://cache:6379:1": correct it or unset it (single-process hub)',
    );
  },
);

startup('a bad SECRETS_KEY: the one line says what a key is and never echoes the value', async (ctx) => {
  const bad = 'c2VjcmV0LWJ1dC10b28tc2hvcnQ=';
  const said = soleRefusal(await start(ctx, { SECRETS_KEY: bad }));
  assert.is(
    said,
    'SECRETS_KEY must be 32 bytes in base64 or hex (openssl rand -base64 32), one key (earlier ones ' +
      'go into SECRETS_PREVIOUS_KEYS): correct it or unset it (key file DATA_DIR/secrets.key)',
  );
});

startup(
  'an unreachable MONGODB_URI: one line naming it (without its password) and what to do, no driver dump',
  async (ctx) => {
    const port = await freePort();
    const exit = await start(ctx, { MONGODB_URI: `mongodb://ops:hunter2@127.0.0.1:${port}/alarmhub` });
    const said = refusal(exit);
    assert.is(
      said,
      `the database at MONGODB_URI mongodb://ops:***@127.0.0.1:${port}/alarmhub did not answer (connect ` +
        `ECONNREFUSED 127.0.0.1:${port}): start it or correct MONGODB_URI (unset, the service starts ` +
        `an embedded database in DATA_DIR)`,
    );
    assert.not.match(exit.stderr.join('\n') + exit.stdout, 'hunter2');
  },
);

startup('a start that fails leaves no secrets key file behind (without SECRETS_KEY)', async (ctx) => {
  const port = await freePort();
  const exit = await start(ctx, { MONGODB_URI: `mongodb://127.0.0.1:${port}/alarmhub`, SECRETS_KEY: undefined });
  refusal(exit);
  assert.not.ok(fs.existsSync(path.join(ctx.dataDir, 'secrets.key')), 'secrets.key written by a start that failed');
});

startup('a port in use: one line naming PORT, before any database is started', async (ctx) => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const exit = await start(ctx, { PORT: String(port) });
    assert.is(
      refusal(exit),
      `PORT ${port} is already in use on 127.0.0.1 (another process listens there): stop that process ` +
        `or set PORT to a free port`,
    );
    assert.not.ok(
      exit.stderr.some((line) => line.includes('database:')),
      'no database was started',
    );
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

startup("a HOST that is not this machine's: one line naming HOST", async (ctx) => {
  // 192.0.2.0/24 is reserved for documentation: never an address of this machine.
  assert.is(
    refusal(await start(ctx, { HOST: '192.0.2.1', PORT: String(await freePort()) })),
    'HOST 192.0.2.1 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them',
  );
});

startup('a push key file that cannot be read: one line naming the variable', async (ctx) => {
  const missing = path.join(ctx.dataDir, 'nowhere', 'apns.p8');
  const said = refusal(
    await start(ctx, { APNS_KEY_FILE: missing, APNS_KEY_ID: 'K', APNS_TEAM_ID: 'T', APNS_TOPIC: 'org.example' }),
  );
  assert.match(
    said,
    new RegExp(
      `^APNS_KEY_FILE ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read by .* \\(ENOENT: ` +
        `no such file or directory, access '.*'\\): correct the path or make the file readable$`,
    ),
  );
});

startup(
  'the admin command: a bad setting and an unreachable database are one line on stderr and one ' +
    'JSON object on stdout, exit 1',
  async () => {
    const bad = await runAdmin(['org', 'list'], { MONGODB_URI: 'localhost:27017', LOG_LEVEL: 'silent' });
    assert.is(bad.code, 1, bad.stdout + bad.stderr);
    const expected =
      'MONGODB_URI must be a mongodb:// or mongodb+srv:// connection string (mongodb://host:27017/alarmhub?replicaSet=rs0), ' +
      'not "localhost:27017": correct it or unset it (embedded database)';
    assert.equal(bad.json, { error: 'cannot_start', message: expected });
    assert.is(bad.stderr, `alarm-hub admin: cannot start: ${expected}\n`);

    const port = await freePort();
    const down = await runAdmin(['org', 'list'], {
      MONGODB_URI: `mongodb://ops:hunter2@127.0.0.1:${port}/alarmhub`,
      LOG_LEVEL: 'silent',
    });
    assert.is(down.code, 1, down.stdout + down.stderr);
    const message =
      `the database at MONGODB_URI mongodb://ops:***@127.0.0.1:${port}/alarmhub did not answer (connect ` +
      `ECONNREFUSED 127.0.0.1:${port}): start it or correct MONGODB_URI (unset, the service starts ` +
      `an embedded database in DATA_DIR)`;
    assert.equal(down.json, { error: 'cannot_start', message });
    assert.is(
      down.stderr,
      [
        `alarm-hub admin: database: MongoDB at mongodb://ops:***@127.0.0.1:${port}/alarmhub (MONGODB_URI)`,
        `alarm-hub admin: cannot start: ${message}`,
        '',
      ].join('\n'),
    );
    assert.not.match(down.stdout + down.stderr, 'hunter2');
  },
);

startup.run();
