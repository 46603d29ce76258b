// Real service processes (as `npm start` runs them) and a private redis-server, for tests about scale
// and faults.
import { spawn, type ChildProcess } from 'node:child_process';
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
}

/** Spawns server/main.ts on a free port with the given environment; resolves when it listens. */
export function spawnService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
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
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done(child.exitCode);
          child.removeAllListeners('exit');
          child.once('exit', (code) => done(code));
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  start(): Promise<void>;
  /** Kills the server at once, as a crash would. */
  kill(): Promise<void>;
}

/** A redis-server of the test's own on a free port, keeping nothing on disk. */
export async function privateRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const { default: net } = await import('node:net');
        const ok = await new Promise<boolean>((r) => {
          const s = net.connect(port, '127.0.0.1');
          s.once('connect', () => (s.destroy(), r(true)));
          s.once('error', () => r(false));
        });
        if (ok) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('redis-server did not start');
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise((r) => {
        running.once('exit', r);
        running.kill('SIGKILL');
      });
    },
  };
  await server.start();
  return server;
}
