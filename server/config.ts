// Configuration from the environment. Only server/main.ts and the admin command call loadConfig();
// everything else receives a Config.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Set when the operator names a database; otherwise the launcher picks one (MONGODB.md). */
  mongodbUri: string | undefined;
  dataDir: string;
  /** Connections to MongoDB per process, and how long a request waits for one before a 503. */
  mongodbPoolSize: number;
  mongodbWaitQueueTimeoutMs: number;
  redisUrl: string | undefined;
  /** Namespace of every Redis channel and key; unset: "alarm-hub:<installation id>". */
  redisPrefix: string | undefined;
  /** How often each process records that it is alive (and compares hub settings with the others). */
  hubHeartbeatMs: number;
  /** How often each process compares its screens' monitors with the stored versions (the safety net for lost patches). */
  hubResyncMs: number;
  /** A screen silent this long counts as offline. */
  screenOfflineAfterMs: number;
  /** Sockets one credential may hold on one hub process; 0 is no cap. */
  maxSocketsPerToken: number;
  logLevel: string;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** Map tile URL template for the display client ({z}/{x}/{y}); empty means no tiles. */
  tileUrl: string;
  /** How often connected screens' tokens are checked for revocation. */
  tokenRecheckMs: number;
  /** How long a resolved credential is reused without reading it again (0: never). */
  credentialCacheMs: number;
  /** Requests per second per credential (twice that as burst); 0 turns rate limiting off. */
  rateLimitPerSecond: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Things records an organization may hold unless `org limit` set its own. */
  thingsRecordLimit: number;
  /** When set, /metrics answers only with "Authorization: Bearer <this>". */
  metricsToken: string | undefined;
  /** Key of the integration secrets (32 bytes, base64 or hex); unset: the key file below. */
  secretsKey: string | undefined;
  /** Earlier keys, still read (not written) so the key can be rotated. */
  secretsPreviousKeys: string[];
  /** The key file used without SECRETS_KEY: DATA_DIR/secrets.key, created with mode 0600. */
  secretsKeyFile: string;
  /** Push gateways of the app area (A5); a gateway left unset answers 503 push_unavailable. */
  push: PushConfig;
}

/** APNs token-based auth and FCM HTTP v1 settings; file paths are read when the service starts. */
export interface PushConfig {
  apns: { keyFile: string; keyId: string; teamId: string; topic: string; host: string; sandboxHost: string } | null;
  fcm: { serviceAccountFile: string; host: string; tokenUrl: string | undefined } | null;
  /** A PEM file of CAs trusted for push connections besides the system's (tests' fake gateways). */
  extraCaFile: string | undefined;
  /** How long a push's confirmation token can be answered. */
  confirmTtlSeconds: number;
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
    mongodbPoolSize: integer(env, 'MONGODB_POOL_SIZE', 20) || 20,
    mongodbWaitQueueTimeoutMs: integer(env, 'MONGODB_WAIT_QUEUE_TIMEOUT_MS', 10_000),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    maxSocketsPerToken: integer(env, 'HUB_MAX_SOCKETS_PER_TOKEN', 100),
    screenOfflineAfterMs: integer(env, 'SCREEN_OFFLINE_AFTER_MS', 120_000) || 120_000,
    hubHeartbeatMs: integer(env, 'HUB_HEARTBEAT_MS', 10_000) || 10_000,
    hubResyncMs: integer(env, 'HUB_RESYNC_MS', 10_000) || 10_000,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    tileUrl: env.TILE_URL ?? '',
    // 0 would recheck every millisecond, a read per connected credential each time.
    tokenRecheckMs: integer(env, 'TOKEN_RECHECK_MS', 5_000) || 5_000,
    credentialCacheMs: integer(env, 'CREDENTIAL_CACHE_MS', 1_000),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    thingsRecordLimit: integer(env, 'THINGS_RECORD_LIMIT', 10_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    secretsKey: secretsKey[0],
    secretsPreviousKeys: secretKeys(env, 'SECRETS_PREVIOUS_KEYS'),
    secretsKeyFile: path.join(dataDir, 'secrets.key'),
    push: loadPushConfig(env),
  };
}

/** All of a group's variables or none: a half-configured gateway fails at start, naming what is missing. */
function group(env: Env, names: string[]): boolean {
  const missing = names.filter((n) => !env[n]);
  if (missing.length === names.length) return false;
  if (missing.length) throw new Error(`${missing.join(', ')} must be set together with ${names.filter((n) => env[n]).join(', ')}`);
  return true;
}

function loadPushConfig(env: Env): PushConfig {
  const apns = group(env, ['APNS_KEY_FILE', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC']);
  return {
    apns: apns ? {
      keyFile: path.resolve(env.APNS_KEY_FILE!), keyId: env.APNS_KEY_ID!, teamId: env.APNS_TEAM_ID!, topic: env.APNS_TOPIC!,
      host: env.APNS_HOST || 'https://api.push.apple.com', sandboxHost: env.APNS_SANDBOX_HOST || 'https://api.sandbox.push.apple.com',
    } : null,
    fcm: env.FCM_SERVICE_ACCOUNT_FILE ? {
      serviceAccountFile: path.resolve(env.FCM_SERVICE_ACCOUNT_FILE), host: env.FCM_HOST || 'https://fcm.googleapis.com', tokenUrl: env.FCM_TOKEN_URL || undefined,
    } : null,
    extraCaFile: env.PUSH_EXTRA_CA_FILE ? path.resolve(env.PUSH_EXTRA_CA_FILE) : undefined,
    confirmTtlSeconds: integer(env, 'PUSH_CONFIRM_TTL_SECONDS', 86_400),
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
    `MONGODB_POOL_SIZE=${config.mongodbPoolSize} (${origin('MONGODB_POOL_SIZE')})`,
    `MONGODB_WAIT_QUEUE_TIMEOUT_MS=${config.mongodbWaitQueueTimeoutMs} (${origin('MONGODB_WAIT_QUEUE_TIMEOUT_MS')})`,
    `REDIS_URL=${config.redisUrl ? redactUri(config.redisUrl) : '(unset: single-process hub)'} (${origin('REDIS_URL')})`,
    `REDIS_PREFIX=${config.redisPrefix ?? '(unset: alarm-hub:<installation id>)'} (${origin('REDIS_PREFIX')})`,
    `HUB_MAX_SOCKETS_PER_TOKEN=${config.maxSocketsPerToken} (${origin('HUB_MAX_SOCKETS_PER_TOKEN')}${config.maxSocketsPerToken ? '' : ': no cap'})`,
    `HUB_HEARTBEAT_MS=${config.hubHeartbeatMs} (${origin('HUB_HEARTBEAT_MS')})`,
    `HUB_RESYNC_MS=${config.hubResyncMs} (${origin('HUB_RESYNC_MS')})`,
    `SCREEN_OFFLINE_AFTER_MS=${config.screenOfflineAfterMs} (${origin('SCREEN_OFFLINE_AFTER_MS')})`,
    `LOG_LEVEL=${config.logLevel} (${origin('LOG_LEVEL')})`,
    `TILE_URL=${config.tileUrl || '(unset: display maps without tiles)'} (${origin('TILE_URL')})`,
    `SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs} (${origin('SHUTDOWN_TIMEOUT_MS')})`,
    `TOKEN_RECHECK_MS=${config.tokenRecheckMs} (${origin('TOKEN_RECHECK_MS')})`,
    `CREDENTIAL_CACHE_MS=${config.credentialCacheMs} (${origin('CREDENTIAL_CACHE_MS')})`,
    `TRUST_PROXY=${config.trustProxy} (${origin('TRUST_PROXY')})`,
    `METRICS_TOKEN=${config.metricsToken ? '(set: /metrics needs it as a bearer token)' : '(unset: /metrics is open)'} (${origin('METRICS_TOKEN')})`,
    `RATE_LIMIT_PER_SECOND=${config.rateLimitPerSecond} (${origin('RATE_LIMIT_PER_SECOND')}${config.rateLimitPerSecond ? '' : ': off'})`,
    `THINGS_RECORD_LIMIT=${config.thingsRecordLimit} (${origin('THINGS_RECORD_LIMIT')}: records per organization without its own limit)`,
    `SECRETS_KEY=${config.secretsKey ? '(set, not shown)' : `(unset: key file ${config.secretsKeyFile})`} (${origin('SECRETS_KEY')})`,
    `SECRETS_PREVIOUS_KEYS=${config.secretsPreviousKeys.length} key(s), not shown (${origin('SECRETS_PREVIOUS_KEYS')})`,
    ...describePush(config.push, origin),
  ];
}

// Key files and service accounts are named by path only; their contents are never printed.
function describePush(push: PushConfig, origin: (name: string) => string): string[] {
  const { apns, fcm } = push;
  return [
    apns
      ? `APNS_KEY_FILE=${apns.keyFile}, APNS_KEY_ID=${apns.keyId}, APNS_TEAM_ID=${apns.teamId}, APNS_TOPIC=${apns.topic}, APNS_HOST=${apns.host}, APNS_SANDBOX_HOST=${apns.sandboxHost}`
      : 'APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC=(unset: iOS test pushes answer 503 push_unavailable)',
    fcm
      ? `FCM_SERVICE_ACCOUNT_FILE=${fcm.serviceAccountFile}, FCM_HOST=${fcm.host}, FCM_TOKEN_URL=${fcm.tokenUrl ?? "(the service account's token_uri)"}`
      : 'FCM_SERVICE_ACCOUNT_FILE=(unset: Android test pushes answer 503 push_unavailable)',
    `PUSH_EXTRA_CA_FILE=${push.extraCaFile ?? '(unset: system CAs only)'} (${origin('PUSH_EXTRA_CA_FILE')})`,
    `PUSH_CONFIRM_TTL_SECONDS=${push.confirmTtlSeconds} (${origin('PUSH_CONFIRM_TTL_SECONDS')})`,
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
