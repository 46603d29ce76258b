// The configuration as `npm start` reads and prints it (server/config.ts): every variable loadConfig
// reads is named in describeConfig's lines, and a 0 that would make a timer spin means the default.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { describeConfig, loadConfig } from '../server/config.js';

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
  APNS_KEY_FILE: '/etc/alarm-hub/apns.p8', APNS_KEY_ID: 'KEY1234567', APNS_TEAM_ID: 'TEAM123456', APNS_TOPIC: 'org.example.alarm',
  FCM_SERVICE_ACCOUNT_FILE: '/etc/alarm-hub/fcm.json',
};

for (const [what, env] of [['defaults', {}], ['push gateways configured', PUSH]] as Array<[string, Record<string, string>]>) {
  config(`describeConfig names every variable loadConfig reads (${what})`, () => {
    const read = keysRead(env);
    assert.ok(read.size > 20, `only ${read.size} variables recorded`);
    const printed = describeConfig(loadConfig(env), env).join('\n');
    const missing = [...read].filter((name) => !new RegExp(`(^|[^A-Z_])${name}[=,]`, 'm').test(printed));
    assert.equal(missing, [], `not printed: ${missing.join(', ')}`);
  });
}

config('describeConfig prints HUB_HEARTBEAT_MS with its value and origin', () => {
  const env = { HUB_HEARTBEAT_MS: '2500' };
  assert.ok(describeConfig(loadConfig(env), env).includes('HUB_HEARTBEAT_MS=2500 (from environment)'));
  assert.ok(describeConfig(loadConfig({}), {}).includes('HUB_HEARTBEAT_MS=10000 (default)'));
});

config('TOKEN_RECHECK_MS=0 is the default, 5000 ms, and is printed as such', () => {
  const env = { TOKEN_RECHECK_MS: '0' };
  const loaded = loadConfig(env);
  assert.is(loaded.tokenRecheckMs, 5_000);
  assert.ok(describeConfig(loaded, env).includes('TOKEN_RECHECK_MS=5000 (from environment)'));
  assert.is(loadConfig({ TOKEN_RECHECK_MS: '750' }).tokenRecheckMs, 750);
  assert.throws(() => loadConfig({ TOKEN_RECHECK_MS: '-1' }), /TOKEN_RECHECK_MS must be a non-negative integer/);
});

config.run();
