// The configuration as `npm start` reads and prints it (server/config.ts): every variable loadConfig
// reads is named in describeConfig's lines and in README's table, a 0 that would make a timer spin
// means the default, and a bad value is refused in one sentence naming it and the fix.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { ConfigError, describeConfig, loadConfig } from '../server/config.js';
import { configTable, VARIABLES } from '../server/config-variables.js';
import { repoRoot } from './helpers/cli.js';

const config = suite('config');

/** The variables loadConfig reads from `env`, recorded as it reads them. */
function keysRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  loadConfig(recording);
  return read;
}

// Both push gateways configured, so the variables read only then are read too.
const PUSH = {
  APNS_KEY_FILE: '/etc/alarm-hub/apns.p8',
  APNS_KEY_ID: 'KEY1234567',
  APNS_TEAM_ID: 'TEAM123456',
  APNS_TOPIC: 'org.example.alarm',
  FCM_SERVICE_ACCOUNT_FILE: '/etc/alarm-hub/fcm.json',
};

for (const [what, env] of [
  ['defaults', {}],
  ['push gateways configured', PUSH],
] as Array<[string, Record<string, string>]>) {
  config(`describeConfig names every variable loadConfig reads (${what})`, () => {
    const read = keysRead(env);
    assert.ok(read.size > 20, `only ${read.size} variables recorded`);
    const printed = describeConfig(env).join('\n');
    const missing = [...read].filter((name) => !new RegExp(`(^|[^A-Z_])${name}[=,]`, 'm').test(printed));
    assert.equal(missing, [], `not printed: ${missing.join(', ')}`);
  });
}

config('describeConfig prints HUB_HEARTBEAT_MS with its value and origin', () => {
  const env = { HUB_HEARTBEAT_MS: '2500' };
  assert.ok(describeConfig(env).includes('HUB_HEARTBEAT_MS=2500 (from environment)'));
  assert.ok(describeConfig({}).includes('HUB_HEARTBEAT_MS=10000 (default)'));
});

config('TOKEN_RECHECK_MS=0 is the default, 5000 ms, and is printed as such', () => {
  const env = { TOKEN_RECHECK_MS: '0' };
  const loaded = loadConfig(env);
  assert.is(loaded.tokenRecheckMs, 5_000);
  assert.ok(describeConfig(env).includes('TOKEN_RECHECK_MS=5000 (from environment)'));
  assert.is(loadConfig({ TOKEN_RECHECK_MS: '750' }).tokenRecheckMs, 750);
  assert.throws(() => loadConfig({ TOKEN_RECHECK_MS: '-1' }), /TOKEN_RECHECK_MS must be a non-negative integer/);
});

config(
  "README's Configuration table is the one the declarations make (npm run --silent readme:config writes it)",
  () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const start = readme.indexOf('| Variable | Default | Meaning |');
    const table = readme.slice(start, readme.indexOf('\n\n', start));
    assert.is(
      table,
      configTable(),
      'README.md differs from server/config-variables.ts: run npm run --silent readme:config',
    );
    for (const name of Object.keys(VARIABLES)) assert.ok(table.includes(`| \`${name}\` |`), name);
  },
);

config('a 0 means the default only where the table says so; elsewhere it is 0', () => {
  const zeros = Object.fromEntries(
    Object.keys(VARIABLES)
      .filter((name) => /_MS$|_SIZE$|_TOKEN$|_LIMIT$|_PER_SECOND$|_SECONDS$/.test(name) && name !== 'METRICS_TOKEN')
      .map((name) => [name, '0']),
  );
  const loaded = loadConfig(zeros);
  assert.equal(
    {
      pool: loaded.mongodbPoolSize,
      heartbeat: loaded.hubHeartbeatMs,
      resync: loaded.hubResyncMs,
      offline: loaded.screenOfflineAfterMs,
      recheck: loaded.tokenRecheckMs,
      fullRecheck: loaded.tokenFullRecheckMs,
      tool: loaded.inputs.toolTimeoutMs,
    },
    {
      pool: 20,
      heartbeat: 10_000,
      resync: 10_000,
      offline: 120_000,
      recheck: 5_000,
      fullRecheck: 60_000,
      tool: 30_000,
    },
  );
  assert.equal(
    {
      sockets: loaded.maxSocketsPerToken,
      rate: loaded.rateLimitPerSecond,
      records: loaded.thingsRecordLimit,
      cache: loaded.credentialCacheMs,
      wait: loaded.mongodbWaitQueueTimeoutMs,
      shutdown: loaded.shutdownTimeoutMs,
    },
    { sockets: 0, rate: 0, records: 0, cache: 0, wait: 0, shutdown: 0 },
  );
  const table = configTable();
  for (const name of [
    'MONGODB_POOL_SIZE',
    'HUB_HEARTBEAT_MS',
    'HUB_RESYNC_MS',
    'SCREEN_OFFLINE_AFTER_MS',
    'TOKEN_RECHECK_MS',
    'TOKEN_FULL_RECHECK_MS',
    'INPUT_TOOL_TIMEOUT_MS',
  ]) {
    assert.match(
      table.split('\n').find((row) => row.startsWith(`| \`${name}\``))!,
      '`0` is the default',
      name,
    );
  }
  assert.is(loadConfig({ PORT: '0' }).port, 0, 'PORT=0 picks a free port');
});

/** The one sentence loadConfig throws for `env`. */
function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.instance(err, ConfigError);
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

config('every kind of bad value is refused with the variable, what it must be and the fix', () => {
  assert.is(
    problem({ PORT: 'abc' }),
    'PORT must be a non-negative integer up to 65535, not "abc": correct it or unset it for the default (3000)',
  );
  assert.match(problem({ PORT: '70000' }), /^PORT must be a non-negative integer up to 65535, not "70000"/);
  assert.match(
    problem({ LISTEN_BACKLOG: '0' }),
    /^LISTEN_BACKLOG must be an integer of at least 1 up to 65535, not "0"/,
  );
  assert.match(
    problem({ SHUTDOWN_TIMEOUT_MS: '3000000000' }),
    /^SHUTDOWN_TIMEOUT_MS must be a non-negative integer up to 2147483647/,
  );
  assert.match(problem({ HUB_RESYNC_MS: '1.5' }), /^HUB_RESYNC_MS must be a non-negative integer/);
  assert.is(
    problem({ LOG_LEVEL: 'verbose' }),
    'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose": correct ' +
      'it or unset it for the default (info)',
  );
  assert.match(problem({ TRUST_PROXY: 'yes' }), /^TRUST_PROXY must be true, 1, false or 0, not "yes"/);
  for (const bad of [
    'redis://local host:6379',
    'localhost:6379',
    'redis://host:99999',
    'http://redis:6379',
    'redis-cluster://a:1,b:x',
  ]) {
    assert.match(
      problem({ REDIS_URL: bad }),
      /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL .*: correct it or unset it \(single-process hub\)$/,
      bad,
    );
  }
  for (const good of [
    'redis://127.0.0.1:6379',
    'rediss://:pw@cache.example:6380/2',
    'redis-cluster://10.0.0.1:7000,10.0.0.2:7001',
  ])
    assert.is(loadConfig({ REDIS_URL: good }).redisUrl, good);
  for (const bad of ['localhost:27017', 'mongodb://', 'mongodb://a:b:c/x', 'postgres://db/x'])
    assert.match(problem({ MONGODB_URI: bad }), /^MONGODB_URI must be a mongodb:\/\//, bad);
  for (const good of [
    'mongodb://u:p%40ss@mongo:27017/alarmhub?replicaSet=rs0',
    'mongodb://a:1,b:2,[::1]:3/x',
    'mongodb+srv://cluster0.example.net/db',
  ])
    assert.is(loadConfig({ MONGODB_URI: good }).mongodbUri, good);
  assert.match(problem({ HOST: 'local host' }), /^HOST must be a host name or an IP address/);
  assert.match(problem({ APNS_HOST: 'api.push.apple.com' }), /^APNS_HOST must be an http:\/\/ or https:\/\/ URL/);
});

config('several bad values are named at once, and a secret is never echoed', () => {
  const secret = 'not-a-key-but-secret-looking-text';
  const message = problem({ PORT: 'abc', LOG_LEVEL: 'loud', SECRETS_KEY: secret, METRICS_TOKEN: 'fine' });
  assert.match(message, /^PORT must be .*; LOG_LEVEL must be .*; SECRETS_KEY must be 32 bytes in base64 or hex/);
  assert.not.match(message, secret);
  assert.not.match(problem({ SECRETS_PREVIOUS_KEYS: secret }), secret);
  // A URI that does not parse still has its password hidden.
  for (const typo of ['mongodb//admin:pa/ss@db:27017/x', 'admin:pa/ss@db:27017', 'mongodb://admin:pa/ss@db:27o17/x']) {
    const said = problem({ MONGODB_URI: typo });
    assert.not.match(said, 'pa/ss', said);
    assert.match(said, '***@db:27', said);
  }
  assert.not.match(problem({ REDIS_URL: 'redis://:hunter2@cache:port' }), 'hunter2');
});

config('an empty variable is an unset one', () => {
  const empty = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, '']));
  assert.equal(loadConfig(empty), loadConfig({}));
});

config.run();
