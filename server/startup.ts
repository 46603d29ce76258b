// Why a start failed, in one sentence that names the setting and the fix, instead of a stack an
// operator has to read (server/main.ts and the admin command print it and exit non-zero). preflight()
// checks what only the machine can tell before anything is started: a port in use or an unwritable
// data directory does not first start a database and then fail.
import fs from 'node:fs';
import net from 'node:net';
import { ConfigError, redactUri, type Config } from './config.js';

/** A start-up problem already phrased for the operator. */
export class StartupError extends Error {}

const user = () => (process.getuid ? `user ${process.getuid()}` : 'this user');
const reason = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/** What the service keeps in DATA_DIR with this configuration (nothing: the directory is not used). */
export function dataDirUses(config: Config, opts: { keyFile: boolean }): string[] {
  return [
    ...(opts.keyFile && !config.secretsKey ? ['the secrets key file (SECRETS_KEY is unset)'] : []),
    ...(!config.mongodbUri ? ['the embedded database (MONGODB_URI is unset)'] : []),
  ];
}

/**
 * Throws a StartupError when DATA_DIR cannot be written, a configured file cannot be read, or (with `port`) the port
 * cannot be bound.
 */
export async function preflight(config: Config, opts: { dataDirUses: string[]; port: boolean }): Promise<void> {
  if (opts.dataDirUses.length) checkDataDir(config.dataDir, opts.dataDirUses);
  const files: Array<[string, string | undefined]> = [
    ['APNS_KEY_FILE', config.push.apns?.keyFile],
    ['FCM_SERVICE_ACCOUNT_FILE', config.push.fcm?.serviceAccountFile],
    ['PUSH_EXTRA_CA_FILE', config.push.extraCaFile],
  ];
  for (const [name, file] of files) {
    if (!file) continue;
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (err) {
      throw new StartupError(
        `${name} ${file} cannot be read by ${user()} (${reason(err)}): correct the path or make the file readable`,
      );
    }
  }
  if (opts.port && config.port !== 0) {
    const refused = await bindError(config.port, config.host);
    if (refused) throw new StartupError(explainListen(refused, config));
  }
}

// Created 0700 like the files in it: the key file and the database are nobody else's to read.
function checkDataDir(dir: string, uses: string[]): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    throw new StartupError(
      `DATA_DIR ${dir} cannot be written by ${user()} (${reason(err)}), and it holds ${uses.join(' and ')}: ` +
        ("make it writable for that user or set DATA_DIR to a directory that is (the container image's " +
          'is the volume /data)'),
    );
  }
}

/** Binds the port for a moment; the error if it cannot be bound. */
function bindError(port: number, host: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err) => resolve(err));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

function explainListen(err: NodeJS.ErrnoException, config: Config): string {
  const { port, host } = config;
  switch (err.code) {
    case 'EADDRINUSE':
      return (
        `PORT ${port} is already in use on ${host} (another process listens there): stop that process ` +
        `or set PORT to a free port`
      );
    case 'EACCES':
      return `PORT ${port} needs privileges ${user()} does not have: set PORT to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return (
        `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 ` +
        `for all of them`
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${host} does not resolve (${err.code}): set HOST to an address of this machine`;
    default:
      return `listening on HOST ${host}, PORT ${port} failed (${reason(err)}): check HOST and PORT`;
  }
}

// MongoDB's server error codes that mean the credentials, not the server, are the problem.
const REFUSED = new Set([13, 18]);

/** The sentence that says why the start failed and what to change; `config` is unknown when reading it failed. */
export function explainStartupError(err: unknown, config?: Config): string {
  if (err instanceof ConfigError || err instanceof StartupError) return err.message;
  const e = err as
    { name?: string; message?: string; code?: string | number; syscall?: string; path?: string } | undefined;
  if (typeof e?.name === 'string' && e.name.startsWith('Mongo')) {
    const where = config?.mongodbUri
      ? `the database at MONGODB_URI ${redactUri(config.mongodbUri)}`
      : 'the embedded database';
    if (/ServerSelection/.test(e.name)) {
      return `${where} did not answer (${reason(e)}): start it or correct ${config?.mongodbUri ? 'MONGODB_URI (unset, the service starts an embedded database in DATA_DIR)' : 'DATA_DIR'}`;
    }
    if (/Parse|InvalidArgument|Runtime/.test(e.name))
      return `MONGODB_URI is not a connection string the MongoDB driver accepts (${reason(e)}): correct MONGODB_URI`;
    if (typeof e.code === 'number' && REFUSED.has(e.code))
      return (
        `${where} refused this service (${reason(e)}): correct the user and password in MONGODB_URI, ` +
        `or that user's roles`
      );
    return `${where} failed (${reason(e)}): check MONGODB_URI and the database's own log`;
  }
  if (config && (e?.syscall === 'listen' || e?.syscall === 'getaddrinfo'))
    return explainListen(e as NodeJS.ErrnoException, config);
  if (config && typeof e?.path === 'string' && e.path.startsWith(config.dataDir)) {
    return `DATA_DIR ${config.dataDir}: ${reason(e)}: make the directory and its files readable and writable for ${user()}`;
  }
  return reason(e);
}
