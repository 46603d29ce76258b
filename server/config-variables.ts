// One declaration per environment variable: the JSON schema its value must match (server/config.ts
// checks them all at once with Ajv), its default and its help. The start-up lines and README's
// Configuration table are made from these (`npm run --silent readme:config` rewrites the table,
// test/unit-config.test.ts fails while it differs), so a variable is described in one place.
import path from 'node:path';
import {
  type Variable,
  file,
  text,
  flag,
  gatewayShown,
  httpUrl,
  integer,
  millis,
  redactUri,
  withoutCredentials,
} from './config-kinds.js';

export const VARIABLES = {
  PORT: integer({ default: 3000, max: 65_535, help: 'HTTP, hub and display on one port (`0` picks a free one)' }),
  HOST: text({ default: '0.0.0.0', help: 'Listen address', format: 'host', expect: 'a host name or an IP address' }),
  LISTEN_BACKLOG: integer({
    default: 4096,
    min: 1,
    max: 65_535,
    help:
      'Connections the kernel queues before they are accepted; screens reconnecting at once after ' +
      'a restart are held instead of dropped and retried seconds later (Linux caps it at `net.core.somaxconn`; ' +
      'docs/hub.md "Reconnect storms")',
  }),
  MONGODB_URI: text<string | undefined>({
    default: undefined,
    help:
      'MongoDB 6+ (replica set). Unset: `mongod` on PATH, else embedded FerretDB, else a downloaded ' +
      'MongoDB (mongodb-memory-server, needs internet)',
    format: 'mongodb-uri',
    expect: 'a mongodb:// or mongodb+srv:// connection string (mongodb://host:27017/alarmhub?replicaSet=rs0)',
    unset: 'embedded database',
    redact: withoutCredentials,
    show: (value) => (value ? redactUri(value) : '(unset: embedded database)'),
  }),
  DATA_DIR: text({
    // Resolved once, against the directory the process starts in, like a DATA_DIR that is set.
    default: path.resolve('./data'),
    defaultText: './data',
    help:
      "The embedded database's files and address file, and the secrets key file without `SECRETS_KEY`; " +
      "the service must be able to write it (the container image's is the volume `/data`)",
    finish: (value) => path.resolve(value),
  }),
  REDIS_URL: text<string | undefined>({
    default: undefined,
    help:
      'Set it to run several hub processes as one (`redis://…`, or `redis-cluster://host:port,…`, ' +
      'see [Past one Redis](docs/operating.md#past-one-redis)); unset: single-process hub',
    format: 'redis-url',
    expect: 'a redis:// or rediss:// URL (redis://host:6379/0), or redis-cluster://host:port,host:port',
    unset: 'single-process hub',
    redact: withoutCredentials,
    show: (value) => (value ? redactUri(value) : '(unset: single-process hub)'),
  }),
  REDIS_PREFIX: text<string | undefined>({
    default: undefined,
    defaultText: '`alarm-hub:<installation id>`',
    help: 'Namespace of every Redis channel and key (see "Installations sharing one Redis")',
    unset: 'alarm-hub:<installation id>',
  }),
  HUB_MAX_SOCKETS_PER_TOKEN: integer({
    default: 100,
    help:
      'Hub connections one credential may hold per process (`connect_error` "too_many_connections" ' +
      'beyond); `0` is no cap',
    note: (value) => (value === 0 ? 'no cap' : undefined),
  }),
  HUB_HEARTBEAT_MS: millis({
    default: 10_000,
    zeroIsDefault: true,
    help:
      'How often each process records itself in the database and compares hub settings with the others ' +
      '(`0` is the default)',
  }),
  HUB_RESYNC_MS: millis({
    default: 10_000,
    zeroIsDefault: true,
    help:
      "How often each process compares its screens' monitors with the stored versions and sends a " +
      'snapshot where patches were lost; a monitor only stored ahead gets half this time for its patches ' +
      'to arrive first (`0` is the default)',
  }),
  MONGODB_POOL_SIZE: integer({
    default: 20,
    zeroIsDefault: true,
    help: 'Database connections per process (`0` is the default)',
  }),
  MONGODB_WAIT_QUEUE_TIMEOUT_MS: millis({
    default: 10_000,
    help: 'How long a request waits for a free connection before it is answered 503 `unavailable`',
  }),
  LOG_LEVEL: {
    ...text({ default: 'info', help: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' }),
    schema: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    expect: 'one of fatal, error, warn, info, debug, trace, silent',
  },
  TILE_URL: text({
    default: '',
    defaultText: 'empty',
    help: 'Map tiles for the display (`https://tiles.example/{z}/{x}/{y}.png`); empty: maps without tiles',
    unset: 'display maps without tiles',
  }),
  JOURNAL_TIME_ZONE: text({
    default: 'Europe/Berlin',
    help: 'Time zone of the local times in journal exports unless a request names one (`timeZone`), an IANA name',
    format: 'time-zone',
    expect: 'an IANA time zone such as Europe/Berlin',
  }),
  SHUTDOWN_TIMEOUT_MS: millis({ default: 10_000, help: 'How long SIGTERM waits for in-flight requests' }),
  SCREEN_OFFLINE_AFTER_MS: millis({
    default: 120_000,
    zeroIsDefault: true,
    help: 'A paired screen silent this long counts as offline (`screen:offline`; `0` is the default)',
  }),
  DATA_WRITES_PER_ORGANIZATION: integer({
    default: 4,
    help:
      'Alarm data writes (M7–M10) of one organization in flight per process; more wait their turn ' +
      '(see "Alarm data writes"), so one organization\'s flood does not delay another\'s alarm; `0` is no bound',
    note: (value) => (value === 0 ? 'no bound' : undefined),
  }),
  DATA_WRITE_BYTES_PER_ORGANIZATION: integer({
    default: 256 * 1024,
    help:
      'Declared body bytes the alarm data writes of one organization may hold in flight per process ' +
      '(a single write is always let in): small updates go in parallel, large ones one after another',
  }),
  DATA_WRITE_QUEUE_PER_ORGANIZATION: integer({
    default: 100,
    help:
      'Alarm data writes of one organization that may wait for their turn per process; beyond, 503 ' +
      '`unavailable` with Retry-After',
  }),
  DATA_WRITE_WAIT_MS: millis({
    default: 10_000,
    help:
      "How long an alarm data write waits for its organization's turn before it is answered 503 `unavailable` " +
      'with Retry-After',
  }),
  PAIRING_SWEEP_MS: millis({
    default: 60_000,
    help:
      'How often each process removes expired screen pairings (F1 stores two documents per pairing; ' +
      'expired ones are refused, and removed by this sweep in batches of 500, at most 5,000 a pass); ' +
      '`0` turns the sweep off',
  }),
  TOKEN_RECHECK_MS: millis({
    default: 5_000,
    zeroIsDefault: true,
    help:
      "How often the credentials of connected hub sockets are checked: a revoked token's sockets, " +
      "and a user's after he left an organization, are disconnected (`0` is the default)",
  }),
  TOKEN_FULL_RECHECK_MS: millis({
    default: 60_000,
    zeroIsDefault: true,
    help:
      "How often a recheck pass reads every connected socket's credential (one lookup per distinct " +
      'token and user) whatever the credential change mark says: a revocation whose mark could not ' +
      'be written disconnects its sockets at the first pass this long after the previous full one ' +
      '(`0` is the default)',
  }),
  CREDENTIAL_CACHE_MS: millis({
    default: 1_000,
    help:
      "How long each process reuses a credential it resolved (the token, and a user's memberships) " +
      'for REST and hub handshakes without reading it again; `0` reads it on every request. Unknown ' +
      'and revoked credentials are never kept. So a token revoked or a membership changed by the admin ' +
      'command (its own process) is seen within this time; a screen removed with F5 is refused at ' +
      'once on every process (they are told through Redis before F5 answers; while Redis is away, ' +
      'within this time), and its sockets are disconnected at once on all',
  }),
  RATE_LIMIT_PER_SECOND: integer({
    default: 50,
    help:
      'Requests per second per credential and client address (burst: twice that), shared by all processes ' +
      'through Redis when `REDIS_URL` is set; alarm data writes that pass authorization are exempt ' +
      '(bounded per organization instead, see `DATA_WRITES_PER_ORGANIZATION`); `0` turns all rate limits off',
    note: (value) => (value === 0 ? 'off' : undefined),
  }),
  PUBLIC_URL: text<string | undefined>({
    default: undefined,
    defaultText: '`http://localhost:<PORT>`',
    help:
      'Where people reach the service (`https://alarm.example.org`): invitation and sign-in links, the ' +
      "session cookie's `Secure` flag (https), the origin a console request must come from (docs/people.md)",
    format: 'http-url',
    expect: 'an http:// or https:// URL',
    unset: 'the local address the service listens on',
  }),
  TRUST_PROXY: flag(
    '`true` (or `1`) behind a reverse proxy: take client addresses from the rightmost `X-Forwarded-For` entry',
  ),
  METRICS_TOKEN: text<string | undefined>({
    default: undefined,
    help:
      'When set, `/metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset: ' +
      '`/metrics` is open',
    secret: true,
    show: (value) => (value ? '(set: /metrics needs it as a bearer token)' : '(unset: /metrics is open)'),
  }),
  APNS_KEY_FILE: file(
    'APNs token-based auth: the `.p8` key file. With `APNS_KEY_ID`, `APNS_TEAM_ID` and `APNS_TOPIC`: ' +
      'all four or none; none: iOS test pushes answer 503 `push_unavailable`',
    'iOS test pushes answer 503 push_unavailable',
  ),
  APNS_KEY_ID: text<string | undefined>({ default: undefined, help: "The APNs key's ID (with `APNS_KEY_FILE`)" }),
  APNS_TEAM_ID: text<string | undefined>({ default: undefined, help: 'The Apple team ID (with `APNS_KEY_FILE`)' }),
  APNS_TOPIC: text<string | undefined>({
    default: undefined,
    help: "The app's bundle ID, the APNs topic (with `APNS_KEY_FILE`)",
  }),
  APNS_HOST: httpUrl({
    default: 'https://api.push.apple.com',
    defaultText: '`https://api.push.apple.com`',
    help: 'APNs host',
  }),
  APNS_SANDBOX_HOST: httpUrl({
    default: 'https://api.sandbox.push.apple.com',
    defaultText: '`https://api.sandbox.push.apple.com`',
    help: 'APNs host for devices with `pushTokenDevelopment: true`',
  }),
  FCM_SERVICE_ACCOUNT_FILE: file(
    'The Firebase service account key (JSON). Unset: Android test pushes answer 503 `push_unavailable`',
    'Android test pushes answer 503 push_unavailable',
  ),
  FCM_HOST: httpUrl({
    default: 'https://fcm.googleapis.com',
    defaultText: '`https://fcm.googleapis.com`',
    help: 'FCM HTTP v1 host',
  }),
  FCM_TOKEN_URL: text<string | undefined>({
    default: undefined,
    defaultText: "the service account's `token_uri`",
    help: "OAuth2 token endpoint for the service account's signed assertion",
    format: 'http-url',
    expect: 'an http:// or https:// URL',
    unset: "the service account's token_uri",
  }),
  PUSH_EXTRA_CA_FILE: file(
    "A PEM file of CAs trusted for push connections in addition to the system's (the tests' fake gateways)",
    'system CAs only',
  ),
  PUSH_CONFIRM_TTL_SECONDS: integer({ default: 86_400, help: "How long a push's confirmation token can be answered" }),
  VAPID_PUBLIC_KEY: text<string | undefined>({
    default: undefined,
    help:
      'Web Push (VAPID): the public key, 65 bytes in base64url (`npx web-push generate-vapid-keys`); with ' +
      "`VAPID_PRIVATE_KEY`, both or none. None: the installation's own pair ([Web Push](docs/members-app.md#web-push))",
    format: 'vapid-public-key',
    expect: 'a P-256 public key of 65 bytes (uncompressed point) in base64url (npx web-push generate-vapid-keys)',
    unset: "the installation's own pair, kept in the database",
  }),
  VAPID_PRIVATE_KEY: text<string | undefined>({
    default: undefined,
    help: 'Web Push: the private key of `VAPID_PUBLIC_KEY`, 32 bytes in base64url',
    format: 'vapid-private-key',
    expect: 'a P-256 private key of 32 bytes in base64url (npx web-push generate-vapid-keys)',
    secret: true,
    unset: "the installation's own pair, kept in the database",
  }),
  VAPID_SUBJECT: text<string | undefined>({
    default: undefined,
    defaultText: '`PUBLIC_URL` when https, else `mailto:alarm-hub@<its host>`',
    help: 'Web Push: how push services reach the operator (VAPID `sub`), `mailto:` or `https:`; set it when `PUBLIC_URL` is not https',
    format: 'vapid-subject',
    expect: 'a mailto: address or an https:// URL (mailto:admin@example.org)',
    unset: 'PUBLIC_URL when https, else mailto:alarm-hub@<its host>',
  }),
  WEB_PUSH_ORIGINS: text<string | undefined>({
    default: undefined,
    defaultText: 'empty',
    help:
      "Comma-separated origins (`https://push.example.org`; `http://` too, for tests) a web device's subscription " +
      "may name besides Mozilla's, Google's, Apple's and Microsoft's push services ([Web Push](docs/members-app.md#web-push))",
    format: 'web-push-origins',
    expect: 'comma-separated http:// or https:// origins, without path (https://push.example.org)',
    unset: 'the known push services only',
  }),
  SMS_GATEWAY_URL: text<string | undefined>({
    default: undefined,
    help:
      'Where alarm SMS are POSTed as JSON `{to, text, alarmId, deliveryId}` ([connecting a provider](docs/alarms.md#connecting-an-sms-or-voice-provider)); ' +
      'unset: SMS deliveries fail with "no gateway configured"',
    format: 'http-url',
    expect: 'an http:// or https:// URL',
    unset: 'no SMS is sent',
    // A provider's credentials may travel in the URL (user info, a key in the query): never printed.
    redact: withoutCredentials,
    show: (value) => (value ? gatewayShown(value) : '(unset: no SMS is sent)'),
  }),
  CALL_GATEWAY_URL: text<string | undefined>({
    default: undefined,
    help: 'Where alarm calls are POSTed, as for SMS; unset: call deliveries fail with "no gateway configured"',
    format: 'http-url',
    expect: 'an http:// or https:// URL',
    unset: 'no call is made',
    // A provider's credentials may travel in the URL (user info, a key in the query): never printed.
    redact: withoutCredentials,
    show: (value) => (value ? gatewayShown(value) : '(unset: no call is made)'),
  }),
  GATEWAY_TOKEN: text<string | undefined>({
    default: undefined,
    help: 'Sent to the SMS and call gateways as `Authorization: Bearer <GATEWAY_TOKEN>`',
    secret: true,
    unset: 'no Authorization header',
  }),
  GATEWAY_TIMEOUT_MS: millis({
    default: 10_000,
    help:
      'How long one try of an SMS, a call or a web push waits for its gateway or push service; a try that ' +
      'times out is retried (at most 5 tries within about a minute)',
  }),
  INBOUND_GATEWAY_TOKEN: text<string | undefined>({
    default: undefined,
    help: 'The `Gateway-Token` the SMS and voice gateways must send to IN1 and IN2; unset: inbound alarms are off (401)',
    secret: true,
    unset: 'inbound alarms off',
  }),
  SMS_QUOTA_PER_DAY: integer({
    default: 0,
    help:
      'SMS an organization may send through the gateway in 24 hours (every organization shares it); beyond it ' +
      "an SMS delivery fails with the quota's reason. 0: no quota",
    note: (value) => (value === 0 ? 'no quota' : undefined),
  }),
  CALL_QUOTA_PER_DAY: integer({
    default: 0,
    help: 'Calls an organization may make through the gateway in 24 hours, as SMS_QUOTA_PER_DAY. 0: no quota',
    note: (value) => (value === 0 ? 'no quota' : undefined),
  }),
  ALARM_OUTBOX_SWEEP_MS: millis({
    default: 1_000,
    help: 'How often each process looks for alarm deliveries that are due (retries, and work a stopped process left)',
  }),
  INPUT_IMAP_POLL_MS: millis({
    default: 10_000,
    help: 'How often an e-mail input looks for new mail when its server cannot IDLE, and checks the folder anyway when it can ([E-mail](docs/inputs.md#e-mail))',
  }),
  INPUT_IMAP_PORTS: text<string>({
    default: '143,993',
    help: 'The ports an e-mail input may name (comma-separated): an organization cannot make the service connect to other ports on the network ([E-mail](docs/inputs.md#e-mail))',
  }),
  INPUT_TOOL_TIMEOUT_MS: millis({
    default: 30_000,
    zeroIsDefault: true,
    help: 'How long one run of a document tool (pdftotext, pdftoppm, Tesseract) may take before it is stopped; all runs for one document together have twice this (`0` is the default; [What happens to a document](docs/inputs.md#what-happens-to-a-document))',
  }),
  INPUT_IMAP_RECONCILE_MS: millis({
    default: 10_000,
    help: 'How often each process starts, restarts and stops its IMAP watchers to match the inputs as stored',
  }),
  SECRETS_KEY: text<string | undefined>({
    default: undefined,
    help:
      "Key of the integration's secrets: 32 bytes, base64 or hex (`openssl rand -base64 32`). Unset: " +
      '`DATA_DIR/secrets.key`, created with mode 0600 ([secrets key](docs/api.md#the-secrets-key))',
    format: 'secrets-key',
    expect: '32 bytes in base64 or hex (openssl rand -base64 32), one key (earlier ones go into SECRETS_PREVIOUS_KEYS)',
    secret: true,
    unset: 'key file DATA_DIR/secrets.key',
    finish: (value) => value.trim(),
    show: (value, all) =>
      value ? '(set, not shown)' : `(unset: key file ${path.join(String(all.DATA_DIR), 'secrets.key')})`,
  }),
  SECRETS_PREVIOUS_KEYS: {
    schema: { type: 'string', maxLength: 4096, format: 'secrets-keys' },
    read: (value) => value,
    finish: (value: string) =>
      value
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    default: [],
    defaultText: 'empty',
    help: 'Comma-separated earlier keys, still read (never written) after a rotation',
    expect: '32 bytes each in base64 or hex, comma-separated',
    secret: true,
    show: (value) => `${value.length} key(s), not shown`,
  } satisfies Variable<string[]>,
  THINGS_RECORD_LIMIT: integer({
    default: 10_000,
    help: 'Things records an organization may hold unless `org limit` gave it its own limit',
    note: () => 'records per organization without its own limit',
  }),
} satisfies Record<string, Variable<any>>;

export type VariableName = keyof typeof VARIABLES;

/** The value of every variable, as the service uses it. */
export type Settings = { [K in VariableName]: (typeof VARIABLES)[K]['default'] };

/** Variables that go together: all of them or none. */
export const GROUPS: VariableName[][] = [
  ['APNS_KEY_FILE', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'],
  ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
];

/** README's Configuration table, one row per variable. */
export function configTable(): string {
  const rows = Object.entries(VARIABLES).map(
    ([name, v]: [string, Variable<unknown>]) => `| \`${name}\` | ${v.defaultText} | ${v.help.replaceAll('|', '\\|')} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
