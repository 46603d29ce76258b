// The admin command line (CONTRACT.md §4): each command prints one JSON object on stdout.
// Progress goes to stderr so scripts can parse stdout.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { launchDatabase } from '../db/launcher.js';
import { AppError } from '../http/errors.js';
import { IdentityCommands } from '../identity/commands.js';

const USAGE = `usage: npm run --silent admin -- <command>
  org create --name NAME
  org limit --org ID --records N
  user create --name NAME
  member add --org ID --user ID --role admin|member
  member remove --org ID --user ID
  apikey create --org ID --name NAME
  pat create --user ID --name NAME
  token revoke --id ID`;

class UsageError extends Error {}

function id(value: string | undefined, flag: string): number {
  if (value === undefined) throw new UsageError(`--${flag} is required`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer up to 2^53-1`);
  return n;
}

function text(value: string | undefined, flag: string): string {
  if (!value || !value.trim()) throw new UsageError(`--${flag} is required`);
  if (value.length > 200) throw new UsageError(`--${flag} is longer than 200 characters`);
  return value.trim();
}

async function execute(identity: IdentityCommands, words: string[], v: Record<string, string | undefined>): Promise<object> {
  switch (words.join(' ')) {
    case 'org create': return identity.createOrganization(text(v.name, 'name'));
    case 'org limit': return identity.setRecordLimit(id(v.org, 'org'), id(v.records, 'records'));
    case 'user create': return identity.createUser(text(v.name, 'name'));
    case 'member add': {
      if (v.role !== 'admin' && v.role !== 'member') throw new UsageError('--role must be admin or member');
      return identity.addMember(id(v.org, 'org'), id(v.user, 'user'), v.role);
    }
    case 'member remove': return identity.removeMember(id(v.org, 'org'), id(v.user, 'user'));
    case 'apikey create': return identity.createApiKey(id(v.org, 'org'), text(v.name, 'name'));
    case 'pat create': return identity.createPersonalToken(id(v.user, 'user'), text(v.name, 'name'));
    case 'token revoke': return identity.revokeToken(id(v.id, 'id'));
    default: throw new UsageError(`unknown command "${words.join(' ')}"`);
  }
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: Object.fromEntries(['name', 'org', 'user', 'role', 'id', 'records'].map((k) => [k, { type: 'string' as const }])),
  });
  return { words: positionals, values: values as Record<string, string | undefined> };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || ['help', '--help', '-h'].includes(args[0])) {
    process.stdout.write(JSON.stringify({ usage: USAGE.split('\n').slice(1).map((line) => line.trim()) }) + '\n');
    return 0;
  }
  let parsed;
  try {
    parsed = parse(args);
    if (parsed.words.length !== 2) throw new UsageError('expected a command of two words');
  } catch (err) {
    // node's argument parser explains at length; its first line is the point (e.g. "--records -1").
    const message = (err as Error).message.split('\n')[0];
    process.stdout.write(JSON.stringify({ error: 'usage', message }) + '\n');
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  const config = loadConfig();
  const say = (line: string) => process.stderr.write(`alarm-hub admin: ${line}\n`);
  const database = await launchDatabase({ uri: config.mongodbUri, dataDir: config.dataDir, say });
  // Says which database was used, so an operator sees that a running service's one was reused.
  say(`database: ${database.engine}`);
  const db = await openDatabase(database.uri);
  try {
    const result = await execute(new IdentityCommands(db), parsed.words, parsed.values);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (err) {
    const known = err instanceof AppError || err instanceof UsageError;
    const code = err instanceof AppError ? err.code : err instanceof UsageError ? 'usage' : 'internal_error';
    process.stdout.write(JSON.stringify({ error: code, message: known ? (err as Error).message : String(err) }) + '\n');
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await db.close();
    await database.stop();
  }
}

process.exitCode = await main();
