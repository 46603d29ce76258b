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
  /** Key of the integration secrets (32 bytes, base64 or hex); unset: the key file below. */
  secretsKey: string | undefined;
  /** Earlier keys, still read (not written) so the key can be rotated. */
  secretsPreviousKeys: string[];
  /** The key file used without SECRETS_KEY: DATA_DIR/secrets.key, created with mode 0600. */
  secretsKeyFile: string;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

// A secrets key is 32 bytes in hex or base64; anything else is refused at start, not at first use.
function secretKeys(env: Env, name: string): string[] {
  const keys = (env[name] ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  for (const key of keys) {
    const bytes = /^[0-9a-fA-F]{64}$/.test(key) ? 32 : /^[A-Za-z0-9+/_-]{43}=?$/.test(key) ? Buffer.from(key, 'base64').length : 0;
    if (bytes !== 32) throw new Error(`${name} must be 32 bytes in base64 or hex (e.g. openssl rand -base64 32)`);
  }
  return keys;
}

/** Reads the configuration; throws with the variable's name when a value is unusable. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const secretsKey = secretKeys(env, 'SECRETS_KEY');
  if (secretsKey.length > 1) throw new Error('SECRETS_KEY must be one key; earlier ones go into SECRETS_PREVIOUS_KEYS');
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '0.0.0.0',
    mongodbUri: env.MONGODB_URI || undefined,
    dataDir,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    tileUrl: env.TILE_URL ?? '',
    tokenRecheckMs: integer(env, 'TOKEN_RECHECK_MS', 5_000),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    secretsKey: secretsKey[0],
    secretsPreviousKeys: secretKeys(env, 'SECRETS_PREVIOUS_KEYS'),
    secretsKeyFile: path.join(dataDir, 'secrets.key'),
  };
}

/** The lines printed at start: every setting with where it came from (secrets keys are never shown). */
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
    `SECRETS_KEY=${config.secretsKey ? '(set, not shown)' : `(unset: key file ${config.secretsKeyFile})`} (${origin('SECRETS_KEY')})`,
    `SECRETS_PREVIOUS_KEYS=${config.secretsPreviousKeys.length} key(s), not shown (${origin('SECRETS_PREVIOUS_KEYS')})`,
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
