// The only file that reads the environment and listens.
import { pino } from 'pino';
import { describeConfig, loadConfig, redactUri } from './config.js';
import { openKeyring } from './areas/els-cobra/secrets.js';
import { launchDatabase } from './db/launcher.js';
import { startService } from './service.js';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { pid: process.pid } });
const say = (line: string) => process.stderr.write(`alarm-hub: ${line}\n`);

say('configuration (environment variables and defaults):');
for (const line of describeConfig(config)) say(`  ${line}`);

// The integration secrets' key is named (never shown) at start; without SECRETS_KEY its file is made now.
const secrets = openKeyring(config);
say(`integration secrets key: id ${secrets.keyring.keyId} (${secrets.source})`);
if (config.mongodbUri && !config.secretsKey) say('warning: MONGODB_URI is set but SECRETS_KEY is not: every process of this service needs the same key; set SECRETS_KEY');

const database = await launchDatabase({ uri: config.mongodbUri, dataDir: config.dataDir, say });
say(`database: ${database.engine} at ${redactUri(database.uri)}`);

let service;
try {
  service = await startService(config, database.uri, log);
} catch (err) {
  await database.stop();
  throw err;
}
say(`installation ${service.installationId}; Redis channels and keys under "${service.redisPrefix}"${config.redisUrl ? '' : ' (no REDIS_URL: unused)'}`);
say(`listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${service.port} (REST /api/v1, OpenAPI /openapi.json, hub /socket.io, display /display)`);
if (!(await service.db.models.Organization.exists({}))) {
  // The admin command must find this same database: repeat the settings that choose it.
  const env = [
    process.env.DATA_DIR ? `DATA_DIR=${JSON.stringify(process.env.DATA_DIR)} ` : '',
    process.env.MONGODB_URI ? 'MONGODB_URI=… ' : '',
  ].join('');
  say('no organization yet; create the first one and a token for it:');
  say(`  ${env}npm run --silent admin -- org create --name "Fire Dept North"`);
  say(`  ${env}npm run --silent admin -- apikey create --org 1 --name station`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: finishing in-flight requests, then stopping`);
    try {
      await service.close();
      await database.stop();
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exitCode = 1;
    }
    process.exit();
  });
}
