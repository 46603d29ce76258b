// The admin command line (docs/api.md "Authentication and permissions"): each command prints one JSON object on stdout.
// Progress goes to stderr so scripts can parse stdout: which database it talks to, and why it could
// not start (one sentence, as the service says it). Arguments are checked before the database is
// started, so a typo answers at once.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, redactUri, type Config } from '../config.js';
import { serviceModels } from '../areas/models.js';
import { openDatabase, type Database } from '../db/database.js';
import { launchDatabase, type LaunchedDatabase } from '../db/launcher.js';
import { AppError } from '../errors.js';
import { IdentityCommands } from '../identity/commands.js';
import { People } from '../identity/people.js';
import { dataDirUses, explainStartupError, preflight } from '../startup.js';
import { backup, restore } from './backup.js';

class UsageError extends Error {}

type Flags = Record<string, string | boolean | undefined> & { replace?: boolean };
type Run = (identity: IdentityCommands, db: Database, config: Config) => Promise<object>;

interface Command {
  usage: string;
  /** Checks the flags (throwing UsageError) and returns what runs against the database. */
  prepare(flags: Flags): Run;
}

function id(value: string | boolean | undefined, flag: string): number {
  if (typeof value !== 'string') throw new UsageError(`--${flag} is required`);
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} must be a positive integer up to 2^53-1`);
  return n;
}

function text(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new UsageError(`--${flag} is required`);
  if (value.length > 200) throw new UsageError(`--${flag} is longer than 200 characters`);
  return value.trim();
}

function role(value: string | boolean | undefined): 'admin' | 'member' {
  if (value !== 'admin' && value !== 'member') throw new UsageError('--role must be admin or member');
  return value;
}

// "HLF 20/1, ELW 1": the unit names, each at most 100 characters, at most 20; "" is none.
function units(value: string | boolean | undefined): string[] {
  if (typeof value !== 'string') throw new UsageError('--units needs the unit names, comma-separated ("" for none)');
  const list = [
    ...new Set(
      value
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    ),
  ];
  if (list.length > 20 || list.some((u) => u.length > 100))
    throw new UsageError('--units takes at most 20 names of at most 100 characters');
  return list;
}

const COMMANDS: Record<string, Command> = {
  'org create': {
    usage: 'org create --name NAME',
    prepare: (f) => {
      const name = text(f.name, 'name');
      return (i) => i.createOrganization(name);
    },
  },
  'org limit': {
    usage: 'org limit --org ID --records N',
    prepare: (f) => {
      const [org, records] = [id(f.org, 'org'), id(f.records, 'records')];
      return (i) => i.setRecordLimit(org, records);
    },
  },
  'org list': {
    usage: 'org list',
    prepare: () => async (i, _db, config) => ({ organizations: await i.listOrganizations(config.thingsRecordLimit) }),
  },
  'user create': {
    usage: 'user create --name NAME',
    prepare: (f) => {
      const name = text(f.name, 'name');
      return (i) => i.createUser(name);
    },
  },
  'user list': {
    usage: 'user list [--org ID]',
    prepare: (f) => {
      const org = f.org === undefined ? undefined : id(f.org, 'org');
      return async (i) => ({ users: await i.listUsers(org) });
    },
  },
  'member add': {
    usage: 'member add --org ID --user ID --role admin|member [--units "HLF 20/1,ELW 1"]',
    prepare: (f) => {
      const [org, user, r] = [id(f.org, 'org'), id(f.user, 'user'), role(f.role)];
      const list = f.units === undefined ? undefined : units(f.units);
      return (i) => i.addMember(org, user, r, list);
    },
  },
  'member units': {
    usage: 'member units --org ID --user ID --units "HLF 20/1,ELW 1"',
    prepare: (f) => {
      const [org, user, list] = [id(f.org, 'org'), id(f.user, 'user'), units(f.units)];
      return (i) => i.setMemberUnits(org, user, list);
    },
  },
  'member remove': {
    usage: 'member remove --org ID --user ID',
    prepare: (f) => {
      const [org, user] = [id(f.org, 'org'), id(f.user, 'user')];
      return (i) => i.removeMember(org, user);
    },
  },
  'member list': {
    usage: 'member list --org ID',
    prepare: (f) => {
      const org = id(f.org, 'org');
      return async (i) => ({ organizationId: org, members: await i.listMembers(org) });
    },
  },
  invite: {
    usage: 'invite --org ID --name NAME --role admin|member',
    prepare: (f) => {
      const [org, name, r] = [id(f.org, 'org'), text(f.name, 'name'), role(f.role)];
      return async (i, db, config) => {
        if (!(await i.organizationExists(org))) throw new AppError(404, 'not_found', `Organization ${org} not found`);
        // The command changes no session: nothing for the processes to forget.
        const people = new People(db, i, async () => undefined);
        const { id: _id, ...made } = await people.invite(
          { organizationId: org, name, role: r, createdBy: null },
          config.publicUrl ?? `http://localhost:${config.port}`,
        );
        return made;
      };
    },
  },
  'apikey create': {
    usage: 'apikey create --org ID --name NAME',
    prepare: (f) => {
      const [org, name] = [id(f.org, 'org'), text(f.name, 'name')];
      return (i) => i.createApiKey(org, name);
    },
  },
  'pat create': {
    usage: 'pat create --user ID --name NAME',
    prepare: (f) => {
      const [user, name] = [id(f.user, 'user'), text(f.name, 'name')];
      return (i) => i.createPersonalToken(user, name);
    },
  },
  'token list': {
    usage: 'token list --org ID | --user ID',
    prepare: (f) => {
      if ((f.org === undefined) === (f.user === undefined))
        throw new UsageError('give exactly one of --org and --user');
      const owner = f.org !== undefined ? { organizationId: id(f.org, 'org') } : { userId: id(f.user, 'user') };
      return async (i) => ({ tokens: await i.listTokens(owner) });
    },
  },
  'token revoke': {
    usage: 'token revoke --id ID',
    prepare: (f) => {
      const token = id(f.id, 'id');
      return (i) => i.revokeToken(token);
    },
  },
  'backup create': {
    usage: 'backup create --dir DIR',
    prepare: (f) => {
      const dir = path.resolve(text(f.dir, 'dir'));
      return (_i, db) => backup(db, dir);
    },
  },
  'backup restore': {
    usage: 'backup restore --dir DIR [--replace]',
    prepare: (f) => {
      const dir = path.resolve(text(f.dir, 'dir'));
      return async (_i, db) => ({ restored: true, ...(await restore(db, dir, f.replace === true)) });
    },
  },
};

const USAGE_LINES = Object.values(COMMANDS).map((c) => c.usage);
const USAGE = ['usage: npm run --silent admin -- <command>', ...USAGE_LINES.map((l) => `  ${l}`)].join('\n');

function prepare(argv: string[]): Run {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(
          ['name', 'org', 'user', 'role', 'id', 'records', 'dir', 'units'].map((k) => [k, { type: 'string' as const }]),
        ),
        replace: { type: 'boolean' as const },
      },
    });
  } catch (err) {
    // node's argument parser explains at length; its first line is the point (e.g. "--records -1").
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const words = parsed.positionals.join(' ');
  const command = COMMANDS[words];
  if (!command) throw new UsageError(`unknown command "${words}"; the commands are: ${USAGE_LINES.join('; ')}`);
  return command.prepare(parsed.values as Flags);
}

const print = (value: object) => process.stdout.write(JSON.stringify(value) + '\n');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || ['help', '--help', '-h'].includes(args[0])) {
    print({ usage: USAGE_LINES });
    return 0;
  }
  let run: Run;
  try {
    run = prepare(args);
  } catch (err) {
    print({ error: 'usage', message: (err as Error).message, commands: USAGE_LINES });
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  const say = (line: string) => process.stderr.write(`alarm-hub admin: ${line}\n`);
  let config: Config | undefined;
  let database: LaunchedDatabase | null = null;
  let db: Database;
  try {
    config = loadConfig();
    await preflight(config, { dataDirUses: dataDirUses(config, { keyFile: false }), port: false });
    database = await launchDatabase({ uri: config.mongodbUri, dataDir: config.dataDir, say });
    // Names the database (never its password), so an operator sees which one the command changed.
    say(
      `database: ${config.mongodbUri ? `MongoDB at ${redactUri(config.mongodbUri)} (MONGODB_URI)` : `${database.engine} in DATA_DIR ${config.dataDir}`}`,
    );
    // No service runs on this directory (the command started the database itself): a command run from
    // another directory without DATA_DIR would change a database nobody uses. Said, not refused: it
    // may be on purpose (the first organization before the first start).
    if (!config.mongodbUri && !database.reused)
      say(
        `note: no service runs on DATA_DIR ${config.dataDir}; this command started its database itself. ` +
          `If the service runs elsewhere, set DATA_DIR as npm start printed it.`,
      );
    // The service builds the indexes when it starts; a command writes by _id alone (a restore builds them itself).
    db = await openDatabase(database.uri, serviceModels, { buildIndexes: false });
  } catch (err) {
    const message = explainStartupError(err, config);
    say(`cannot start: ${message}`);
    print({ error: 'cannot_start', message });
    await database?.stop().catch((stopErr: unknown) => say(`the embedded database did not stop: ${stopErr}`));
    return 1;
  }
  try {
    print(await run(new IdentityCommands(db), db, config));
    return 0;
  } catch (err) {
    const known = err instanceof AppError;
    print({ error: known ? err.code : 'failed', message: known ? err.message : (err as Error).message });
    return 1;
  } finally {
    await db.close();
    await database.stop();
  }
}

process.exitCode = await main();
