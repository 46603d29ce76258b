// One alarm-hub process for the benchmarks, as production runs it (compiled JavaScript from dist/):
// configuration from the environment, the database URI from BENCH_MONGODB_URI, and on IPC request its
// memory after a forced GC (run with --expose-gc).
import { pino } from 'pino';
import { reportMemoryOnRequest } from './memory.js';

const dist = '../../dist/server';
const { loadConfig } = (await import(`${dist}/config.js`)) as typeof import('../../server/config.js');
const { startService } = (await import(`${dist}/service.js`)) as typeof import('../../server/service.js');

const service = await startService(loadConfig(), process.env.BENCH_MONGODB_URI!, pino({ level: 'silent' }));
// Every hub socket (the bench's screens connect with the API key, which the hub counts apart from
// paired screens), as the bare server counts its clients.
reportMemoryOnRequest(() => {
  const { screens, otherSockets } = service.hub.status();
  return screens + otherSockets;
});
process.send?.({ listening: service.port });
process.on('message', async (message: { stop?: true }) => {
  if (!message.stop) return;
  await service.close();
  process.exit(0);
});
