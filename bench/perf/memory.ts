// Memory of a benchmark process after a forced GC (run with --expose-gc), on its parent's request.
const gc = (globalThis as { gc?: () => void }).gc;

/** Answers { memory: {rss, heapUsed, clients} } to a { memory: true } IPC message. */
export function reportMemoryOnRequest(clients: () => number): void {
  process.on('message', (message: { memory?: true }) => {
    if (!message.memory) return;
    for (let i = 0; i < 3; i++) gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ memory: { rss, heapUsed, clients: clients(), gc: Boolean(gc) } });
  });
}
