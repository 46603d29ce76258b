import { pino } from 'pino';
import { loadConfig } from '/work/main/server/config.js';
import { startService } from '/work/main/server/service.js';
const service = await startService(loadConfig(), process.env.BENCH_MONGODB_URI!, pino({ level: 'warn' }));
process.send?.({ listening: service.port });
