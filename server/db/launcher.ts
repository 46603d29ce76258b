// Finds or starts the MongoDB the service uses (docs/storage.md): MONGODB_URI; a `mongod` on PATH; FerretDB
// embedded in a small Go program built on first use; a downloaded MongoDB where there is internet.
// Processes on one data directory share the embedded database: the first starts it and writes its
// address to DATA_DIR/embedded-db.json, later ones (a second hub process, the admin command) reuse it,
// and when the first stops, one of the others starts it again on the same address.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Scheduler } from '../scheduler.js';

const run = promisify(execFile);
// tools/ferretdb of the checkout: two levels up from the sources, three from the compiled dist/.
const TOOL_DIR =
  [2, 3]
    .map((up) => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../'.repeat(up), 'tools/ferretdb'))
    .find((dir) => existsSync(path.join(dir, 'go.mod'))) ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tools/ferretdb');
const BINARY = path.join(TOOL_DIR, 'bin', 'ferretdb-embedded');

export interface LaunchedDatabase {
  uri: string;
  /** Which engine and how it was found, for the start-up lines. */
  engine: string;
  /** True when another process started it (a running service): this one only uses it. */
  reused: boolean;
  /** Stops the database when this process started it; leaves a reused or external one alone. */
  stop(): Promise<void>;
}

type Say = (line: string) => void;

interface State {
  /** The process that started the database (and supervises it). */
  pid: number;
  /** The database process itself, when known. */
  childPid?: number;
  uri: string;
  engine: string;
}

/** Where to find or start the database, and who hears about it. */
export interface LaunchOptions {
  uri?: string;
  dataDir: string;
  say: Say;
  /**
   * Runs the watch that keeps the embedded database up (the process's scheduler, which the service
   * also uses and stops first on shutdown); without one the watch runs on a scheduler of its own.
   */
  scheduler?: Scheduler;
}

/** Resolves the database as docs/storage.md "Which database" orders it. */
export async function launchDatabase(opts: LaunchOptions): Promise<LaunchedDatabase> {
  if (opts.uri) return { uri: opts.uri, engine: 'MongoDB at MONGODB_URI', reused: true, stop: async () => {} };
  await fs.mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  const stateFile = path.join(opts.dataDir, 'embedded-db.json');
  const lockFile = path.join(opts.dataDir, 'embedded-db.lock');
  for (let waited = 0; ; waited += 250) {
    const reused = await reuse(stateFile);
    if (reused) return supervise(opts, reused, null);
    if (await takeLock(lockFile)) break;
    // Another process is starting the database right now (building FerretDB can take a minute).
    if (waited > 180_000)
      throw new Error(`timed out waiting for the database another process is starting (${lockFile})`);
    await sleep(250);
  }
  try {
    const started = await start(opts.dataDir, opts.say);
    const state = { pid: process.pid, childPid: started.pid, uri: started.uri, engine: started.engine };
    await fs.writeFile(stateFile, JSON.stringify(state satisfies State), { mode: 0o600 });
    return supervise(opts, state, started);
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

async function readState(stateFile: string): Promise<State | null> {
  try {
    return JSON.parse(await fs.readFile(stateFile, 'utf8')) as State;
  } catch {
    return null;
  }
}

async function reuse(stateFile: string): Promise<State | null> {
  const state = await readState(stateFile);
  if (!state || !alive(state.pid) || !(await reachable(state.uri))) return null;
  return state;
}

// How long a database that does not answer is given before another process starts one: the owner
// restarts its own child at once, so the others only step in when it cannot (stopped, hung, dead).
const TAKEOVER_AFTER_MS = 2_000;

/**
 * Keeps the embedded database running for every process on the data directory. The process that
 * started it restarts it as soon as it exits; any process starts it again (same data, same port, so
 * every driver reconnects to the address it has) when it stays unreachable — its owner stopped or
 * cannot restart it. The lock file makes sure only one does.
 */
function supervise(
  { dataDir, say, scheduler }: LaunchOptions,
  initial: State,
  startedHere: Started | null,
): LaunchedDatabase {
  const stateFile = path.join(dataDir, 'embedded-db.json');
  const lockFile = path.join(dataDir, 'embedded-db.lock');
  const port = Number(new URL(initial.uri.replace(/^mongodb:/, 'http:')).port);
  let owned = startedHere;
  let stopping = false;
  let busy = false;
  let downSince: number | null = null;

  // Shutting down (this process's scheduler stopped, or stop() called): the database is never started
  // again, whoever stopped it.
  const ending = () => stopping || (scheduler?.stopping ?? false);
  const watch = (started: Started) => {
    started.exited.then(() => {
      if (ending() || owned !== started) return;
      say(`the embedded database (pid ${started.pid}) exited; starting it again`);
      void check(true);
    });
  };
  if (owned) watch(owned);

  const check = async (urgent = false) => {
    if (busy || ending()) return;
    busy = true;
    try {
      const state = await readState(stateFile);
      if (state && alive(state.childPid ?? state.pid) && (await reachable(state.uri))) {
        downSince = null;
        return;
      }
      downSince ??= Date.now();
      if (!urgent && Date.now() - downSince < TAKEOVER_AFTER_MS) return;
      if (!(await takeLock(lockFile))) return;
      try {
        const again = await readState(stateFile);
        if (again && alive(again.childPid ?? again.pid) && (await reachable(again.uri))) return;
        const previous = owned;
        owned = await start(dataDir, say, port);
        await fs.writeFile(
          stateFile,
          JSON.stringify({
            pid: process.pid,
            childPid: owned.pid,
            uri: owned.uri,
            engine: owned.engine,
          } satisfies State),
          { mode: 0o600 },
        );
        watch(owned);
        downSince = null;
        say(
          previous
            ? `restarted the embedded database at ${owned.uri}`
            : `took over the embedded database at ${owned.uri} (pid ${again?.pid ?? initial.pid} could not ` +
                `keep it running)`,
        );
      } finally {
        await fs.rm(lockFile, { force: true });
      }
    } catch (err) {
      say(`could not start the embedded database again: ${(err as Error).message}`);
    } finally {
      busy = false;
    }
  };
  // Its own scheduler when the caller has none (the test runner, the admin command, benchmarks).
  const own = scheduler ? null : new Scheduler({ warn: (_details, message) => say(message) });
  (scheduler ?? own!).every('embedded-database-watch', 1_000, () => check());
  own?.start();
  return {
    uri: initial.uri,
    engine: startedHere ? initial.engine : `${initial.engine} (reused, started by pid ${initial.pid})`,
    reused: !startedHere,
    async stop() {
      stopping = true;
      await own?.stop();
      if (!owned) return;
      const state = await readState(stateFile);
      if (state?.pid === process.pid) await fs.rm(stateFile, { force: true });
      await owned.stop();
    },
  };
}

async function takeLock(lockFile: string): Promise<boolean> {
  try {
    await fs.writeFile(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch {
    const holder = Number(await fs.readFile(lockFile, 'utf8').catch(() => '0'));
    if (!alive(holder)) await fs.rm(lockFile, { force: true });
    return false;
  }
}

interface Started {
  uri: string;
  engine: string;
  /** The database's own process, when it is one we spawned. */
  pid?: number;
  /** Settles when the database process exits (never, for one we cannot watch). */
  exited: Promise<void>;
  stop(): Promise<void>;
}

const exitOf = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()));

async function start(dataDir: string, say: Say, port = 0): Promise<Started> {
  const tried: string[] = [];
  if (await onPath('mongod')) return startMongod(dataDir, port);
  tried.push('no mongod on PATH');
  if ((await onPath('go')) || existsSync(BINARY)) return startFerret(dataDir, say, port);
  tried.push('no Go to build the embedded FerretDB');
  try {
    return await startMemoryServer(dataDir, port);
  } catch (err) {
    tried.push(`no downloadable MongoDB (${(err as Error).message})`);
  }
  throw new Error(`no MongoDB available: set MONGODB_URI (${tried.join('; ')})`);
}

async function startMongod(dataDir: string, wanted: number): Promise<Started> {
  const port = wanted || (await freePort());
  const dbPath = path.join(dataDir, 'mongod');
  await privateDir(dbPath);
  const child = privately(() =>
    spawn('mongod', ['--dbpath', dbPath, '--port', String(port), '--bind_ip', '127.0.0.1'], {
      stdio: ['ignore', 'ignore', 'ignore'],
      // Its own process group: Ctrl-C in the terminal stops the service, which stops the database.
      detached: true,
    }),
  );
  const uri = `mongodb://127.0.0.1:${port}/`;
  await waitReachable(uri, child, 30_000);
  return { uri, engine: 'mongod from PATH', pid: child.pid, exited: exitOf(child), stop: () => stopChild(child) };
}

// The database's files hold phone numbers, push tokens, SMS PINs and token hashes: nobody but the
// service's user reads them. Its directory is 0700 and what it holds 0600 (files an earlier version
// created readable are fixed at start), and the database process runs with umask 077, so the files it
// creates later are private too.
async function privateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    // A file of another owner or on a filesystem without modes is left as it is: the directory itself
    // is private (above), which keeps others out of everything in it.
    await fs.chmod(full, entry.isDirectory() ? 0o700 : 0o600).catch(() => {});
  }
}

/** Runs `start` (a spawn) with umask 077: the child inherits it. */
function privately<T>(start: () => T): T {
  const previous = process.umask(0o077);
  try {
    return start();
  } finally {
    process.umask(previous);
  }
}

async function ensureFerretBinary(say: Say): Promise<void> {
  const sources = ['main.go', 'go.mod', 'go.sum'].map((f) => statSync(path.join(TOOL_DIR, f)).mtimeMs);
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= Math.max(...sources)) return;
  say('building the embedded FerretDB (first use; Go fetches modules through its proxy)...');
  await run('go', ['build', '-trimpath', '-o', BINARY, '.'], { cwd: TOOL_DIR, maxBuffer: 16 * 1024 * 1024 });
}

async function startFerret(dataDir: string, say: Say, port: number): Promise<Started> {
  await ensureFerretBinary(say);
  const dir = path.join(dataDir, 'ferretdb');
  await privateDir(dir);
  const logFile = path.join(dataDir, 'ferretdb.log');
  const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  // Created with 0600; an older log of another mode sits in the private data directory all the same.
  await fs.chmod(logFile, 0o600).catch(() => {});
  // stdin stays open as a lifeline: when this process dies, FerretDB sees EOF and stops too.
  const child = privately(() =>
    spawn(BINARY, ['-dir', dir, '-listen', `127.0.0.1:${port}`, '-exit-with-stdin'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: Ctrl-C in the terminal stops the service, which stops the database
      // after the service's last write (the lifeline above still ends it if this process dies).
      detached: true,
    }),
  );
  child.stderr!.pipe(log);
  const uri = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) =>
      reject(new Error(`FerretDB exited with ${code}; see ${path.join(dataDir, 'ferretdb.log')}`)),
    );
  });
  await waitReachable(uri, child, 30_000);
  return {
    uri,
    engine: 'FerretDB v1.24 embedded (SQLite)',
    pid: child.pid,
    exited: exitOf(child),
    stop: () => stopChild(child),
  };
}

async function startMemoryServer(dataDir: string, port: number): Promise<Started> {
  const name = 'mongodb-memory-server-core';
  const { MongoMemoryServer } = (await import(name)) as {
    MongoMemoryServer: { create(o: unknown): Promise<{ getUri(): string; stop(): Promise<boolean> }> };
  };
  const dbPath = path.join(dataDir, 'mongodb');
  await fs.mkdir(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({
    instance: { dbPath, storageEngine: 'wiredTiger', ...(port ? { port } : {}) },
  });
  return {
    uri: server.getUri(),
    engine: 'MongoDB downloaded by mongodb-memory-server',
    exited: new Promise<void>(() => {}),
    stop: async () => void (await server.stop()),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function waitReachable(uri: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`database process exited with ${child.exitCode}`);
    if (await reachable(uri)) return;
    await sleep(100);
  }
  throw new Error(`database at ${uri} did not come up within ${timeoutMs} ms`);
}

/** True when a TCP connection to the URI's first host succeeds. */
export function reachable(uri: string): Promise<boolean> {
  const { hostname, port } = new URL(uri.replace(/^mongodb(\+srv)?:/, 'http:'));
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 27017) });
    socket.setTimeout(1_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function onPath(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
