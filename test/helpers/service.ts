// Starts the real service on port 0 against the run's database, plus fixtures that build parents.
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../server/config.js';
import { IdentityCommands } from '../../server/identity/commands.js';
import { startService, type RunningService } from '../../server/service.js';

export interface TestService extends RunningService {
  url: string;
  identity: IdentityCommands;
}

/** The database URI test/run.ts prepared. */
export function testDbUri(): string {
  const uri = process.env.TEST_MONGODB_URI;
  if (!uri) throw new Error('TEST_MONGODB_URI is not set: run the tests through `npm test`');
  return uri;
}

/** The run's database server with another database on it: a separate installation. */
export function otherDatabase(name: string): string {
  const url = new URL(testDbUri());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A service on a free port; `env` overrides configuration (REDIS_URL is off unless given), `dbUri`
 * picks another database, `log` receives its log lines, `monitorCommands` is openDatabase's (for tests
 * that count a request's commands).
 */
export async function startTestService(
  env: Record<string, string> = {},
  opts: { dbUri?: string; log?: Logger; monitorCommands?: boolean } = {},
): Promise<TestService> {
  // Rate limiting is off unless a test turns it on: suites fire hundreds of requests with one key.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    TOKEN_RECHECK_MS: '500',
    RATE_LIMIT_PER_SECOND: '0',
    CREDENTIAL_CACHE_MS: '0',
    ...env,
  });
  const log = opts.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const service = await startService(config, opts.dbUri ?? testDbUri(), log, { monitorCommands: opts.monitorCommands });
  return { ...service, url: `http://127.0.0.1:${service.port}`, identity: new IdentityCommands(service.db) };
}

export interface OrgFixture {
  orgId: number;
  /** The organization's API key. */
  apiKey: string;
  apiKeyId: number;
  admin: { userId: number; token: string; tokenId: number };
  member: { userId: number; token: string; tokenId: number };
}

let counter = 0;

/** A fresh organization with an API key, an admin user and a member user, each with a personal token. */
export async function createOrg(service: TestService, name = `Org ${++counter}`): Promise<OrgFixture> {
  const { identity } = service;
  const org = await identity.createOrganization(name);
  const key = await identity.createApiKey(org.id, 'station');
  const user = async (role: 'admin' | 'member') => {
    const u = await identity.createUser(`${role} of ${name}`);
    await identity.addMember(org.id, u.id, role);
    const pat = await identity.createPersonalToken(u.id, 'laptop');
    return { userId: u.id, token: pat.token, tokenId: pat.id };
  };
  return {
    orgId: org.id,
    apiKey: key.token,
    apiKeyId: key.id,
    admin: await user('admin'),
    member: await user('member'),
  };
}
