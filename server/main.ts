// The only file that reads the environment and listens. Whatever stops the start is said in one
// line naming the setting and the fix (server/startup.ts), and the process exits with 1. The process's
// one scheduler runs the embedded database's watch and the service's periodic jobs; the service stops
// them first when it closes, so the database is never started again while the process stops.
import { pino } from 'pino';
import { ConfigError, describeConfig, loadConfig, redactUri, type Config } from './config.js';
import { openKeyring } from './areas/els-cobra/secrets.js';
import { launchDatabase, type LaunchedDatabase } from './db/launcher.js';
import { anyOrganization } from './identity/lookup.js';
import { Scheduler } from './scheduler.js';
import { startService, type RunningService } from './service.js';
import { dataDirUses, explainStartupError, preflight, StartupError } from './startup.js';

const say = (line: string) => process.stderr.write(`alarm-hub: ${line}\n`);

function fail(err: unknown, config?: Config): never {
  say(`cannot start: ${explainStartupError(err, config)}`);
  // The stack helps with an error nobody foresaw, and only when asked for.
  const known = err instanceof ConfigError || err instanceof StartupError;
  if (!known && ['debug', 'trace'].includes(config?.logLevel ?? ''))
    process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
  process.exit(1);
}

function configuration(): Config {
  try {
    return loadConfig();
  } catch (err) {
    fail(err);
  }
}

async function main(): Promise<void> {
  const config = configuration();
  const log = pino({ level: config.logLevel, base: { pid: process.pid } });
  const scheduler = new Scheduler(log);

  let database: LaunchedDatabase | null = null;
  let service: RunningService | null = null;
  // Ctrl-C or SIGTERM at any moment: while starting, what was started is stopped and the process ends
  // (130 or 143); once running, in-flight requests finish first.
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      say(service ? `${signal}: finishing in-flight requests, then stopping` : `${signal} while starting: stopping`);
      try {
        if (service) await service.close();
        else await scheduler.stop();
        await database?.stop();
      } catch (err) {
        log.error({ err }, 'error during shutdown');
        process.exitCode = 1;
      }
      say('stopped');
      process.exit(service ? undefined : signal === 'SIGINT' ? 130 : 143);
    });
  }
  // Said only once the signals are handled: a Ctrl-C that follows the first line is never the default
  // kill (describing the configuration may take a moment on a busy machine).
  say('configuration (environment variables and defaults):');
  for (const line of describeConfig()) say(`  ${line}`);

  try {
    // Everything that can be checked is checked before a database is started.
    await preflight(config, { dataDirUses: dataDirUses(config, { keyFile: true }), port: true });
    // A key file that is there is checked now; a missing one is made once the service runs (a start that
    // fails leaves nothing behind).
    openKeyring(config, { create: false });
    if (config.mongodbUri && !config.secretsKey)
      say(
        'warning: MONGODB_URI is set but SECRETS_KEY is not: every process of this service needs the ' +
          'same key; set SECRETS_KEY',
      );
    database = await launchDatabase({ uri: config.mongodbUri, dataDir: config.dataDir, say, scheduler });
    say(`database: ${database.engine} at ${redactUri(database.uri)}`);
    service = await startService(config, database.uri, log, { scheduler });
    // The integration secrets' key is named (never shown); without SECRETS_KEY its file is made now.
    const secrets = openKeyring(config);
    say(`integration secrets key: id ${secrets.keyring.keyId} (${secrets.source})`);
  } catch (err) {
    if (stopping) return;
    await scheduler.stop();
    await database?.stop().catch((stopErr: unknown) => say(`the embedded database did not stop: ${stopErr}`));
    fail(err, config);
  }
  if (stopping || !service) return;
  say(
    `installation ${service.installationId}; Redis channels and keys under "${service.redisPrefix}"` +
      (config.redisUrl ? '' : ' (no REDIS_URL: unused)'),
  );
  say(
    `listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${service.port} ` +
      `(REST /api/v1, OpenAPI /openapi.json, hub /socket.io, display /display)`,
  );
  if (!(await anyOrganization(service.db))) {
    // The admin command must find this same database, and its invitation links this service: repeat the
    // settings that choose them (the links name PUBLIC_URL, else localhost and the port).
    const env = [
      process.env.DATA_DIR ? `DATA_DIR=${JSON.stringify(process.env.DATA_DIR)} ` : '',
      process.env.MONGODB_URI ? 'MONGODB_URI=… ' : '',
      process.env.PUBLIC_URL ? `PUBLIC_URL=${JSON.stringify(process.env.PUBLIC_URL)} ` : '',
      !process.env.PUBLIC_URL && service.port !== 3000 ? `PORT=${service.port} ` : '',
    ].join('');
    say('no organization yet; create the first one, a token for it, and invite its first admin (docs/people.md):');
    say(`  ${env}npm run --silent admin -- org create --name "Fire Dept North"`);
    say(`  ${env}npm run --silent admin -- apikey create --org 1 --name station`);
    say(`  ${env}npm run --silent admin -- invite --org 1 --name "Alex" --role admin`);
  }
}

await main();
