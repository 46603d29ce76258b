// Configuration from the environment. Only server/main.ts and the admin command call loadConfig();
// everything else receives a Config.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Set when the operator names a database; otherwise the launcher picks one (MONGODB.md). */
  mongodbUri: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** Map tile URL template for the display client ({z}/{x}/{y}); empty means no tiles. */
  tileUrl: string;
  /** How often connected screens' tokens are checked for revocation. */
  tokenRecheckMs: number;
  /** Requests per second per credential (twice that as burst); 0 turns rate limiting off. */
  rateLimitPerSecond: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Things records an organization may hold unless `org limit` set its own. */
  thingsRecordLimit: number;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** Reads the configuration; throws with the variable's name when a value is unusable. */
export function loadConfig(env: Env = process.env): Config {
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '0.0.0.0',
    mongodbUri: env.MONGODB_URI || undefined,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    tileUrl: env.TILE_URL ?? '',
    tokenRecheckMs: integer(env, 'TOKEN_RECHECK_MS', 5_000),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    thingsRecordLimit: integer(env, 'THINGS_RECORD_LIMIT', 10_000),
  };
}

/** The lines printed at start: every setting with where it came from (no secrets are configured here). */
export function describeConfig(config: Config, env: Env = process.env): string[] {
  const origin = (name: string) => (env[name] ? 'from environment' : 'default');
  return [
    `PORT=${config.port} (${origin('PORT')})`,
    `HOST=${config.host} (${origin('HOST')})`,
    `MONGODB_URI=${config.mongodbUri ? redactUri(config.mongodbUri) : '(unset: embedded database)'} (${origin('MONGODB_URI')})`,
    `DATA_DIR=${config.dataDir} (${origin('DATA_DIR')})`,
    `REDIS_URL=${config.redisUrl ? redactUri(config.redisUrl) : '(unset: single-process hub)'} (${origin('REDIS_URL')})`,
    `LOG_LEVEL=${config.logLevel} (${origin('LOG_LEVEL')})`,
    `TILE_URL=${config.tileUrl || '(unset: display maps without tiles)'} (${origin('TILE_URL')})`,
    `SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs} (${origin('SHUTDOWN_TIMEOUT_MS')})`,
    `TOKEN_RECHECK_MS=${config.tokenRecheckMs} (${origin('TOKEN_RECHECK_MS')})`,
    `TRUST_PROXY=${config.trustProxy} (${origin('TRUST_PROXY')})`,
    `RATE_LIMIT_PER_SECOND=${config.rateLimitPerSecond} (${origin('RATE_LIMIT_PER_SECOND')}${config.rateLimitPerSecond ? '' : ': off'})`,
    `THINGS_RECORD_LIMIT=${config.thingsRecordLimit} (${origin('THINGS_RECORD_LIMIT')}: records per organization without its own limit)`,
  ];
}

/** Hides the password of a connection URI so it can be printed. */
export function redactUri(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return uri.replace(/\/\/[^@/]*@/, '//***@');
  }
}
