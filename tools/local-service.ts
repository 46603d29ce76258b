// The service as the screenshot tools and the page benchmark run it: its own database (the launcher's
// order, in a temporary directory; MONGODB_URI to use another), rate limits off, on localhost (a secure
// context, as passkeys and service workers need), and Chromium headless.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { startService, type RunningService } from '../server/service.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/browser.js';

export interface LocalService {
  service: RunningService;
  /** http://localhost:<port> */
  base: string;
  browser: Browser;
  /** Closes the browser, the service and the database, and removes the data. */
  stop(): Promise<void>;
}

/** Starts database, service and browser; `name` names the temporary directory, `say` the launcher's lines. */
export async function startLocalService(name: string, say: (line: string) => void): Promise<LocalService> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `alarm-hub-${name}-`));
  const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say });
  const service = await startService(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_SECOND: '0' }),
    database.uri,
    pino({ level: 'silent' }),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return {
    service,
    base: `http://localhost:${service.port}`,
    browser,
    async stop() {
      await browser.close();
      await service.close();
      await database.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
