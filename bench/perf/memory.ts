// Memory and event-loop delay of a benchmark process, on its parent's request.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const gc = (globalThis as { gc?: () => void }).gc;
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

/**
 * Answers { memory: {rss, heapUsed, clients, gc, loopMaxMs, loopP99Ms, cpuMs} } to a { memory: true }
 * IPC message: after a forced GC (run with --expose-gc) unless `noGc`, as a process monitor would see
 * it otherwise. The event-loop delay is the one since the previous request; cpuMs is the process's CPU
 * time (user and system) since it started.
 */
export function reportMemoryOnRequest(clients: () => number): void {
  process.on('message', (message: { memory?: true; noGc?: true }) => {
    if (!message.memory) return;
    if (!message.noGc) for (let i = 0; i < 3; i++) gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    const [loopMaxMs, loopP99Ms] = [loop.max / 1e6, loop.percentile(99) / 1e6];
    loop.reset();
    const { user, system } = process.cpuUsage();
    process.send?.({
      memory: {
        rss,
        heapUsed,
        clients: clients(),
        gc: Boolean(gc) && !message.noGc,
        loopMaxMs,
        loopP99Ms,
        cpuMs: (user + system) / 1000,
      },
    });
  });
}
