// What the test run needs from the machine, checked before anything starts: a missing piece is one
// line saying how to get it, never a wall of connection errors. Redis on the default local address is
// started when redis-server is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** What the selected test files need that is missing, one sentence each (Redis is started if it can be). */
export async function missingPrerequisites(
  files: string[],
  redisUrl: string,
  databaseGiven: boolean,
): Promise<string[]> {
  const missing: string[] = [];
  const uses = (pattern: RegExp) => files.some((f) => pattern.test(fs.readFileSync(f, 'utf8')));
  const redis = new URL(redisUrl);
  const [host, port] = [redis.hostname, Number(redis.port || 6379)];
  if (!(await reachable(host, port))) {
    const local = ['127.0.0.1', 'localhost'].includes(host);
    if (local && onPath('redis-server')) {
      execFileSync('redis-server', [
        '--daemonize',
        'yes',
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
      ]);
      for (let i = 0; i < 50 && !(await reachable(host, port)); i++) await new Promise((r) => setTimeout(r, 100));
    }
    if (!(await reachable(host, port)))
      missing.push(`Redis at ${redisUrl}: apt-get install redis-server (the tests then start it), or set REDIS_URL`);
  }
  if (!databaseGiven && !onPath('mongod') && !onPath('go') && !fs.existsSync('tools/ferretdb/bin/ferretdb-embedded')) {
    missing.push(
      'a database: install Go (the embedded FerretDB is built from the Go module proxy), put mongod ' +
        'on PATH, or set TEST_MONGODB_URI',
    );
  }
  if (uses(/helpers\/(browser|wall)\.js/) && !fs.existsSync('/usr/bin/chromium'))
    missing.push('Chromium for the browser tests: apt-get install chromium');
  if (uses(/helpers\/dovecot\.js/) && !fs.existsSync('/usr/sbin/dovecot'))
    missing.push('Dovecot for the e-mail input tests: apt-get install dovecot-imapd');
  if (uses(/server\/areas\/inputs\/|\/api\/v1\/inputs/) && !(onPath('pdftotext') && onPath('pdftoppm')))
    missing.push("poppler's pdftotext and pdftoppm for the inputs' PDF tests: apt-get install poppler-utils");
  if (
    uses(/server\/areas\/inputs\/|\/api\/v1\/inputs/) &&
    !(onPath('tesseract') && spawnSync('tesseract', ['--list-langs']).stdout?.toString().split('\n').includes('deu'))
  )
    missing.push(
      "Tesseract with German data for the inputs' OCR tests: apt-get install tesseract-ocr tesseract-ocr-deu",
    );
  if (uses(/\/usr\/sbin\/nginx/) && !fs.existsSync('/usr/sbin/nginx'))
    missing.push('nginx for the load balancer test: apt-get install nginx-light');
  if (uses(/redis-cli/) && !onPath('redis-cli'))
    missing.push('redis-cli and redis-server for the Redis Cluster test: apt-get install redis-server');
  if (uses(/spawn\('bash'/) && !onPath('curl'))
    missing.push("curl for the quick start's commands: apt-get install curl");
  if (uses(/push-fakes/) && !onPath('openssl'))
    missing.push('openssl for the push gateway fakes: apt-get install openssl');
  if (uses(/'setpriv'/) && process.getuid?.() === 0 && !onPath('setpriv'))
    missing.push("setpriv to start the container test's service as nobody: apt-get install util-linux");
  return missing;
}
