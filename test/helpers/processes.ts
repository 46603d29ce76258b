// Real service processes (as `npm start` runs them) and a private redis-server, for tests about scale
// and faults.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/db/launcher.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, resolving with the exit code. */
  stop(): Promise<number | null>;
  /**
   * The log lines at error level the process wrote (the latest 200), to say why a test saw a 500; a
   * failed request's line names its status (`"status":503`), so the expected ones can be left out.
   */
  errors(): string[];
}

/** Spawns server/main.ts on a free port with the given environment; resolves when it listens. */
export function spawnService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  // The JSON log (stdout): its error lines are kept (the latest 200), to say why a test saw a 500.
  const logged: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!/"level":(50|60)/.test(line)) return;
    logged.push(line);
    if (logged.length > 200) logged.shift();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${stderr.join('\n')}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${stderr.join('\n')}`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr.push(line);
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        child,
        errors: () => [...stderr.filter((l) => /"level":(50|60)/.test(l)), ...logged],
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.removeAllListeners('exit');
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** The embedded FerretDB helper on `listen` over `dir`, for tests that kill and restart the database. */
export function startFerret(dir: string, listen: string): Promise<{ child: ChildProcess; uri: string }> {
  const child = spawn(path.join(repoRoot, 'tools/ferretdb/bin/ferretdb-embedded'), ['-dir', dir, '-listen', listen], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`FerretDB exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, uri: line.trim() }));
  });
}

export interface RedisServer {
  url: string;
  port: number;
  start(): Promise<void>;
  /** Kills the server at once, as a crash would. */
  kill(): Promise<void>;
}

// Every private redis-server still running is killed when the test process exits, whatever a test did.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * A redis-server of the test's own on a free port, keeping nothing on disk; started, and `start` again after `kill`.
 */
export async function privateRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const alive = (c: ChildProcess | null): c is ChildProcess =>
    c !== null && c.exitCode === null && c.signalCode === null;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      // A second start while it runs would spawn a server that cannot bind, and lose the running one.
      if (alive(child)) return;
      const spawned = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = spawned;
      running.add(spawned);
      spawned.once('exit', () => running.delete(spawned));
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && alive(spawned)) {
        if (await reachable(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`redis-server on port ${port} did not start`);
    },
    async kill() {
      const target = child;
      if (!alive(target)) return;
      await new Promise((r) => {
        target.once('exit', r);
        target.kill('SIGKILL');
      });
    },
  };
  await server.start();
  return server;
}

/** True when something accepts connections on 127.0.0.1:`port`. */
export function reachable(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
