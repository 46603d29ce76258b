// Shared set-up of the benchmarks: a private database (the launcher's order, in a temp dir), the
// service on a free port, and an organization with an API key and one monitor.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService } from '../server/service.js';

/** Starts everything a benchmark needs; `close()` tears it down. */
export async function benchService(env: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-bench-'));
  const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say: (l) => console.error(l) });
  // Benchmarks connect many sockets with one key: the per-token socket cap is off like the rate limits.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_SECOND: '0', HUB_MAX_SOCKETS_PER_TOKEN: '0', ...env });
  const service = await startService(config, database.uri, pino({ level: 'silent' }));
  const identity = new IdentityCommands(service.db);
  const org = await identity.createOrganization('Bench');
  const { token } = await identity.createApiKey(org.id, 'bench');
  const url = `http://127.0.0.1:${service.port}`;
  const res = await fetch(`${url}/api/v1/monitor`, {
    method: 'POST',
    headers: { 'API-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', organizationID: org.id }),
  });
  const monitorId = ((await res.json()) as { id: number }).id;
  // An active alarm, so that alarming patches (M8) have something to patch.
  await fetch(`${url}/api/v1/monitor/${monitorId}/data/alarming`, {
    method: 'POST',
    headers: { 'API-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventId: 1, event: 'Bench alarm', positiveResponses: 0 }),
  });
  console.error(`database: ${database.engine}`);
  return {
    url,
    token,
    monitorId,
    service,
    identity,
    async close() {
      await service.close();
      await database.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
