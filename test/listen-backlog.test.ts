// The listening socket's queue (docs/hub.md "Reconnect storms"): the service asks the kernel for
// LISTEN_BACKLOG queued connections (4,096 unless set), so a storm of reconnecting screens is held
// instead of dropped. `ss` shows the queue a listening socket got (its Send-Q); Linux caps it at
// net.core.somaxconn.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import * as assert from 'uvu/assert';
import { suite } from './helpers/suite.js';
import { startTestService } from './helpers/service.js';

const run = promisify(execFile);
const backlog = suite('listening socket: the connection queue a reconnect storm needs');

async function queueOf(port: number): Promise<number> {
  const { stdout } = await run('ss', ['-Hltn', `sport = :${port}`]);
  const fields = stdout.trim().split(/\s+/);
  assert.is(fields[0], 'LISTEN', stdout);
  return Number(fields[2]);
}

backlog(
  'the service listens with LISTEN_BACKLOG queued connections, 4,096 unless set (as far as somaxconn allows)',
  async () => {
    const somaxconn = Number((await readFile('/proc/sys/net/core/somaxconn', 'utf8')).trim());
    const standard = await startTestService();
    try {
      // Node's own default, which a storm of 3,000 screens overflowed, would be 511.
      assert.is(await queueOf(standard.port), Math.min(4096, somaxconn));
    } finally {
      await standard.close();
    }
    const set = await startTestService({ LISTEN_BACKLOG: '777' });
    try {
      assert.is(await queueOf(set.port), Math.min(777, somaxconn));
    } finally {
      await set.close();
    }
  },
);

backlog.run();
