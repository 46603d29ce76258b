// Configuration from the environment, checked once against the variables' declarations
// (server/config-variables.ts). Only server/main.ts and the admin command call loadConfig(); everything
// else receives a Config.
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { redactUri, type Variable } from './config-kinds.js';
import { GROUPS, VARIABLES, type Settings } from './config-variables.js';

export interface Config {
  port: number;
  host: string;
  /** Connections the kernel queues before they are accepted (capped by net.core.somaxconn). */
  listenBacklog: number;
  /** Set when the operator names a database; otherwise the launcher picks one (docs/storage.md). */
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
  /**
   * How often each process compares its screens' monitors with the stored versions (the safety net for lost patches).
   */
  hubResyncMs: number;
  /** A screen silent this long counts as offline. */
  screenOfflineAfterMs: number;
  /** How often expired screen pairings are removed; 0: never. */
  pairingSweepMs: number;
  /**
   * Alarm data writes per organization and process: in flight (0: no bound) and their declared bytes, waiting, and how
   * long they wait.
   */
  dataWrites: { concurrency: number; bytes: number; queue: number; waitMs: number };
  /** Sockets one credential may hold on one hub process; 0 is no cap. */
  maxSocketsPerToken: number;
  logLevel: string;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** Map tile URL template for the display client ({z}/{x}/{y}); empty means no tiles. */
  tileUrl: string;
  /** The time zone of journal exports' local times unless a request names one. */
  journalTimeZone: string;
  /** How often connected screens' tokens are checked for revocation. */
  tokenRecheckMs: number;
  /** How often a recheck pass checks every socket, whatever the credential change mark says. */
  tokenFullRecheckMs: number;
  /** How long a resolved credential is reused without reading it again (0: never). */
  credentialCacheMs: number;
  /** Requests per second per credential (twice that as burst); 0 turns rate limiting off. */
  rateLimitPerSecond: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Where people reach the service (links, cookie, origin check); unset: the local address it listens on. */
  publicUrl: string | undefined;
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
  /** The alarms area's gateways and outbox (docs/alarms.md). */
  alarms: AlarmsConfig;
  inputs: InputsConfig;
}

/** SMS and voice gateways, the inbound doors' token and the outbox's sweep. */
export interface AlarmsConfig {
  smsGatewayUrl: string | undefined;
  callGatewayUrl: string | undefined;
  gatewayToken: string | undefined;
  gatewayTimeoutMs: number;
  inboundGatewayToken: string | undefined;
  outboxSweepMs: number;
  /** SMS and calls an organization may send in 24 hours (0: no quota). */
  quotaPerDay: { sms: number; call: number };
}

/** The alarm inputs' e-mail watchers (docs/inputs.md "E-mail"). */
export interface InputsConfig {
  imapPollMs: number;
  imapReconcileMs: number;
  /** The ports an e-mail input may name. */
  imapPorts: number[];
  /** One run of a document tool; a document's runs together have twice this. */
  toolTimeoutMs: number;
}

/** APNs token-based auth and FCM HTTP v1 settings; file paths are read when the service starts. */
export interface PushConfig {
  apns: { keyFile: string; keyId: string; teamId: string; topic: string; host: string; sandboxHost: string } | null;
  fcm: { serviceAccountFile: string; host: string; tokenUrl: string | undefined } | null;
  /** A PEM file of CAs trusted for push connections besides the system's (tests' fake gateways). */
  extraCaFile: string | undefined;
  /** How long a push's confirmation token can be answered. */
  confirmTtlSeconds: number;
  /** Web Push (docs/members-app.md "Web Push"). */
  web: WebPushConfig;
}

/** Web Push: the VAPID key pair from the environment (null: the installation's own), its subject, extra origins. */
export interface WebPushConfig {
  vapid: { publicKey: string; privateKey: string } | null;
  /** A mailto: or https: URL; unset: PUBLIC_URL when https, else a mailto: at its host. */
  subject: string | undefined;
  /** Origins of push services allowed besides the known ones. */
  origins: string[];
}

type Env = Record<string, string | undefined>;

/** The environment cannot be used; `problems` holds one sentence per variable, naming it and the fix. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

// Formats of the variables' schemas. Each is what the client library that takes the value accepts, so
// a typo answers at start, before the database is started, not when Redis or a push is first used.
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._%-]+)(:([0-9]{1,5}))?$/;
const hostPort = (node: string) => {
  const match = HOST_PORT.exec(node);
  return Boolean(match) && (match![3] === undefined || Number(match![3]) <= 65_535);
};
const keyBytes = (key: string) =>
  /^[0-9a-fA-F]{64}$/.test(key) ? 32 : /^[A-Za-z0-9+/_-]{43}=?$/.test(key) ? Buffer.from(key, 'base64').length : 0;
// Base64url without padding (as browsers and `web-push` write keys) of exactly `length` bytes, or null.
const base64urlBytes = (text: string, length: number) => {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length === length ? bytes : null;
};
const FORMATS: Record<string, (value: string) => boolean> = {
  host: (value) => /^[A-Za-z0-9._:%-]+$/.test(value),
  'time-zone': (value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return value.length <= 64;
    } catch {
      return false;
    }
  },
  'mongodb-uri': (value) => {
    const match = /^mongodb(\+srv)?:\/\/(?:[^@/]*@)?([^/?#@]+)(\/[^?#]*)?(\?[^#]*)?$/.exec(value);
    return Boolean(match) && match![2].split(',').every(hostPort);
  },
  'redis-url': (value) => {
    if (/^rediss?-cluster:\/\//.test(value))
      return value
        .replace(/^rediss?-cluster:\/\//, '')
        .replace(/\/.*$/, '')
        .split(',')
        .every(hostPort);
    try {
      const url = new URL(value);
      return (
        ['redis:', 'rediss:'].includes(url.protocol) &&
        /^(\/[0-9]*)?$/.test(url.pathname) &&
        (url.port === '' || Number(url.port) <= 65_535)
      );
    } catch {
      return false;
    }
  },
  'http-url': (value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  },
  'secrets-key': (value) => keyBytes(value.trim()) === 32,
  'vapid-public-key': (value) => base64urlBytes(value, 65)?.[0] === 0x04,
  'vapid-private-key': (value) => base64urlBytes(value, 32) !== null,
  'vapid-subject': (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(url.pathname));
    } catch {
      return false;
    }
  },
  'web-push-origins': (value) =>
    value
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .every((origin) => {
        try {
          const url = new URL(origin);
          return ['http:', 'https:'].includes(url.protocol) && url.origin === origin.replace(/\/$/, '');
        } catch {
          return false;
        }
      }),
  'secrets-keys': (value) =>
    value
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .every((k) => keyBytes(k) === 32),
};

// One schema for the whole environment; allErrors is on because an operator should see every
// problem of one start at once (the environment is the operator's, not a client's input). Compiled
// for each read: a start reads the environment once.
function validator(): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  const properties = Object.fromEntries(Object.entries(VARIABLES).map(([name, v]) => [name, (v as Variable).schema]));
  return ajv.compile({ type: 'object', properties });
}

/** Every variable's value (its default when unset or empty); throws a ConfigError naming each bad one. */
export function readSettings(env: Env = process.env): Settings {
  const variables = VARIABLES as Record<string, Variable>;
  const raw = Object.fromEntries(
    Object.keys(variables)
      .map((name) => [name, env[name]])
      .filter(([, text]) => text !== undefined && text !== ''),
  );
  const read = Object.fromEntries(
    Object.entries(raw).map(([name, text]) => [name, variables[name].read(text as string)]),
  );
  const problems: string[] = [];
  const check = validator();
  if (!check(read)) {
    const bad = new Set((check.errors ?? []).map((e) => e.instancePath.slice(1)));
    for (const name of bad) {
      const v = variables[name];
      const got = v.secret ? '' : `, not ${JSON.stringify(v.redact ? v.redact(raw[name]!) : raw[name])}`;
      const unset =
        v.defaultText !== 'unset'
          ? `unset it for the default (${v.defaultText.replaceAll('`', '')})`
          : v.unset
            ? `unset it (${v.unset})`
            : 'unset it';
      problems.push(`${name} must be ${v.expect}${got}: correct it or ${unset}`);
    }
  }
  for (const group of GROUPS) {
    const missing = group.filter((name) => raw[name] === undefined);
    if (missing.length && missing.length < group.length) {
      problems.push(
        `${missing.join(', ')} must be set together with ${group.filter((n) => raw[n] !== undefined).join(', ')}: ` +
          `set all ${group.length} or none`,
      );
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.fromEntries(
    Object.entries(variables).map(([name, v]) => [name, name in read ? v.finish(read[name] as never) : v.default]),
  ) as Settings;
}

/** Reads the configuration; throws a ConfigError naming every variable whose value is unusable. */
export function loadConfig(env: Env = process.env): Config {
  const s = readSettings(env);
  return {
    port: s.PORT,
    listenBacklog: s.LISTEN_BACKLOG,
    host: s.HOST,
    mongodbUri: s.MONGODB_URI,
    dataDir: s.DATA_DIR,
    mongodbPoolSize: s.MONGODB_POOL_SIZE,
    mongodbWaitQueueTimeoutMs: s.MONGODB_WAIT_QUEUE_TIMEOUT_MS,
    redisUrl: s.REDIS_URL,
    redisPrefix: s.REDIS_PREFIX,
    maxSocketsPerToken: s.HUB_MAX_SOCKETS_PER_TOKEN,
    screenOfflineAfterMs: s.SCREEN_OFFLINE_AFTER_MS,
    pairingSweepMs: s.PAIRING_SWEEP_MS,
    dataWrites: {
      concurrency: s.DATA_WRITES_PER_ORGANIZATION,
      bytes: s.DATA_WRITE_BYTES_PER_ORGANIZATION,
      queue: s.DATA_WRITE_QUEUE_PER_ORGANIZATION,
      waitMs: s.DATA_WRITE_WAIT_MS,
    },
    hubHeartbeatMs: s.HUB_HEARTBEAT_MS,
    hubResyncMs: s.HUB_RESYNC_MS,
    logLevel: s.LOG_LEVEL,
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: s.SHUTDOWN_TIMEOUT_MS,
    tileUrl: s.TILE_URL,
    journalTimeZone: s.JOURNAL_TIME_ZONE,
    tokenRecheckMs: s.TOKEN_RECHECK_MS,
    tokenFullRecheckMs: s.TOKEN_FULL_RECHECK_MS,
    credentialCacheMs: s.CREDENTIAL_CACHE_MS,
    rateLimitPerSecond: s.RATE_LIMIT_PER_SECOND,
    trustProxy: s.TRUST_PROXY,
    publicUrl: s.PUBLIC_URL,
    thingsRecordLimit: s.THINGS_RECORD_LIMIT,
    metricsToken: s.METRICS_TOKEN,
    secretsKey: s.SECRETS_KEY,
    secretsPreviousKeys: s.SECRETS_PREVIOUS_KEYS,
    secretsKeyFile: path.join(s.DATA_DIR, 'secrets.key'),
    push: {
      apns: s.APNS_KEY_FILE
        ? {
            keyFile: s.APNS_KEY_FILE,
            keyId: s.APNS_KEY_ID!,
            teamId: s.APNS_TEAM_ID!,
            topic: s.APNS_TOPIC!,
            host: s.APNS_HOST,
            sandboxHost: s.APNS_SANDBOX_HOST,
          }
        : null,
      fcm: s.FCM_SERVICE_ACCOUNT_FILE
        ? { serviceAccountFile: s.FCM_SERVICE_ACCOUNT_FILE, host: s.FCM_HOST, tokenUrl: s.FCM_TOKEN_URL }
        : null,
      extraCaFile: s.PUSH_EXTRA_CA_FILE,
      confirmTtlSeconds: s.PUSH_CONFIRM_TTL_SECONDS,
      web: {
        vapid:
          s.VAPID_PUBLIC_KEY && s.VAPID_PRIVATE_KEY
            ? { publicKey: s.VAPID_PUBLIC_KEY, privateKey: s.VAPID_PRIVATE_KEY }
            : null,
        subject: s.VAPID_SUBJECT,
        origins: (s.WEB_PUSH_ORIGINS ?? '')
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
          .map((origin) => new URL(origin).origin),
      },
    },
    alarms: {
      smsGatewayUrl: s.SMS_GATEWAY_URL,
      callGatewayUrl: s.CALL_GATEWAY_URL,
      gatewayToken: s.GATEWAY_TOKEN,
      gatewayTimeoutMs: s.GATEWAY_TIMEOUT_MS,
      inboundGatewayToken: s.INBOUND_GATEWAY_TOKEN,
      outboxSweepMs: s.ALARM_OUTBOX_SWEEP_MS,
      quotaPerDay: { sms: s.SMS_QUOTA_PER_DAY, call: s.CALL_QUOTA_PER_DAY },
    },
    inputs: {
      imapPollMs: s.INPUT_IMAP_POLL_MS,
      imapReconcileMs: s.INPUT_IMAP_RECONCILE_MS,
      imapPorts: s.INPUT_IMAP_PORTS.split(',')
        .map((p) => Number(p.trim()))
        .filter((p) => Number.isInteger(p) && p > 0 && p < 65536),
      toolTimeoutMs: s.INPUT_TOOL_TIMEOUT_MS,
    },
  };
}

/** The lines printed at start: every variable with its value and where it came from (secrets are never shown). */
export function describeConfig(env: Env = process.env): string[] {
  const settings = readSettings(env) as Record<string, unknown>;
  return Object.entries(VARIABLES as Record<string, Variable>).map(([name, v]) => {
    const value = settings[name] as never;
    const note = v.note?.(value);
    const shown = v.show ? v.show(value, settings) : String(value);
    return `${name}=${shown} (${env[name] ? 'from environment' : 'default'}${note ? `: ${note}` : ''})`;
  });
}

export { redactUri };
