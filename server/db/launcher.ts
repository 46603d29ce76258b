// Finds or starts the MongoDB the service uses (MONGODB.md): MONGODB_URI; a `mongod` on PATH; FerretDB
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
import { promisify } from 'node:util';

const run = promisify(execFile);
const TOOL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tools/ferretdb');
const BINARY = path.join(TOOL_DIR, 'bin', 'ferretdb-embedded');

export interface LaunchedDatabase {
  uri: string;
  /** Which engine and how it was found, for the start-up lines. */
  engine: string;
  /** Stops the database when this process started it; leaves a reused or external one alone. */
  stop(): Promise<void>;
}

type Say = (line: string) => void;

interface State {
  pid: number;
  uri: string;
  engine: string;
}

/** Resolves the database as MONGODB.md orders it. */
export async function launchDatabase(opts: { uri?: string; dataDir: string; say: Say }): Promise<LaunchedDatabase> {
  if (opts.uri) return { uri: opts.uri, engine: 'MongoDB at MONGODB_URI', stop: async () => {} };
  await fs.mkdir(opts.dataDir, { recursive: true });
  const stateFile = path.join(opts.dataDir, 'embedded-db.json');
  const lockFile = path.join(opts.dataDir, 'embedded-db.lock');
  for (let waited = 0; ; waited += 250) {
    const reused = await reuse(stateFile);
    if (reused) return follow(reused, opts.dataDir, opts.say);
    if (await takeLock(lockFile)) break;
    // Another process is starting the database right now (building FerretDB can take a minute).
    if (waited > 180_000) throw new Error(`timed out waiting for the database another process is starting (${lockFile})`);
    await sleep(250);
  }
  try {
    const started = await start(opts.dataDir, opts.say);
    await fs.writeFile(stateFile, JSON.stringify({ pid: process.pid, uri: started.uri, engine: started.engine } satisfies State));
    return {
      uri: started.uri,
      engine: started.engine,
      async stop() {
        await fs.rm(stateFile, { force: true });
        await started.stop();
      },
    };
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

/**
 * Uses a database another process started, and takes it over when that process stops: the first
 * follower to notice starts the same engine on the same data directory and port, so every process's
 * driver simply reconnects to the address it already has.
 */
function follow(initial: State, dataDir: string, say: Say): LaunchedDatabase {
  const stateFile = path.join(dataDir, 'embedded-db.json');
  const lockFile = path.join(dataDir, 'embedded-db.lock');
  let owned: Started | null = null;
  let busy = false;
  const takeOver = async () => {
    const state = await readState(stateFile);
    if (state && alive(state.pid)) return;
    if (!(await takeLock(lockFile))) return;
    try {
      const again = await readState(stateFile);
      if (again && alive(again.pid)) return;
      owned = await start(dataDir, say, Number(new URL(initial.uri.replace(/^mongodb:/, 'http:')).port));
      await fs.writeFile(stateFile, JSON.stringify({ pid: process.pid, uri: owned.uri, engine: owned.engine } satisfies State));
      say(`took over the embedded database at ${owned.uri} (pid ${state?.pid ?? initial.pid} stopped)`);
    } finally {
      await fs.rm(lockFile, { force: true });
    }
  };
  const timer = setInterval(() => {
    if (owned || busy) return;
    busy = true;
    takeOver()
      .catch((err) => say(`could not take over the embedded database: ${(err as Error).message}`))
      .finally(() => (busy = false));
  }, 1_000);
  timer.unref();
  return {
    uri: initial.uri,
    engine: `${initial.engine} (reused, started by pid ${initial.pid})`,
    async stop() {
      clearInterval(timer);
      if (!owned) return;
      await fs.rm(stateFile, { force: true });
      await owned.stop();
    },
  };
}

async function takeLock(lockFile: string): Promise<boolean> {
  try {
    await fs.writeFile(lockFile, String(process.pid), { flag: 'wx' });
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
  stop(): Promise<void>;
}

async function start(dataDir: string, say: Say, port = 0): Promise<Started> {
  const tried: string[] = [];
  if (await onPath('mongod')) return startMongod(dataDir, port);
  tried.push('no mongod on PATH');
  if (await onPath('go') || existsSync(BINARY)) return startFerret(dataDir, say, port);
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
  await fs.mkdir(dbPath, { recursive: true });
  const child = spawn('mongod', ['--dbpath', dbPath, '--port', String(port), '--bind_ip', '127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const uri = `mongodb://127.0.0.1:${port}/`;
  await waitReachable(uri, child, 30_000);
  return { uri, engine: 'mongod from PATH', stop: () => stopChild(child) };
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
  await fs.mkdir(dir, { recursive: true });
  const log = createWriteStream(path.join(dataDir, 'ferretdb.log'), { flags: 'a' });
  // stdin stays open as a lifeline: when this process dies, FerretDB sees EOF and stops too.
  const child = spawn(BINARY, ['-dir', dir, '-listen', `127.0.0.1:${port}`, '-exit-with-stdin'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.pipe(log);
  const uri = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`FerretDB exited with ${code}; see ${path.join(dataDir, 'ferretdb.log')}`)));
  });
  await waitReachable(uri, child, 30_000);
  return { uri, engine: 'FerretDB v1.24 embedded (SQLite)', stop: () => stopChild(child) };
}

async function startMemoryServer(dataDir: string, port: number): Promise<Started> {
  const name = 'mongodb-memory-server-core';
  const { MongoMemoryServer } = (await import(name)) as {
    MongoMemoryServer: { create(o: unknown): Promise<{ getUri(): string; stop(): Promise<boolean> }> };
  };
  const dbPath = path.join(dataDir, 'mongodb');
  await fs.mkdir(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({ instance: { dbPath, storageEngine: 'wiredTiger', ...(port ? { port } : {}) } });
  return { uri: server.getUri(), engine: 'MongoDB downloaded by mongodb-memory-server', stop: async () => void (await server.stop()) };
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
