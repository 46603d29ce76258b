// `npm run test:reliability`: runs the reliability suite (test/reliability/) in its full form through
// the test runner and writes the figures its tests print into RELIABILITY.md, between its markers,
// with the machine, the date and the command. `npm test` runs the same files in a bounded form.
//
// RELIABILITY_REQUESTS (default here 10,000), RELIABILITY_SOAK_ROUNDS (here 30) and RELIABILITY_SEED
// pass through to the tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = {
  ...process.env,
  RELIABILITY_REQUESTS: process.env.RELIABILITY_REQUESTS || '10000',
  RELIABILITY_SOAK_ROUNDS: process.env.RELIABILITY_SOAK_ROUNDS || '30',
  // A new seed each full run (printed, and written with the figures); `npm test` keeps a fixed one.
  RELIABILITY_SEED: process.env.RELIABILITY_SEED || String(Date.now() % 2 ** 31),
  // 10,000 requests, each refused one followed by a dump of the database, take longer than a file of
  // `npm test` may.
  TEST_FILE_TIMEOUT_S: process.env.TEST_FILE_TIMEOUT_S || '7200',
};
// RELIABILITY_FROM_LOG: the saved output of an earlier run, written into RELIABILITY.md without running.
const fromLog = process.env.RELIABILITY_FROM_LOG;
let output = '';
let code = 0;
if (fromLog) {
  output = await fs.readFile(fromLog, 'utf8');
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/run.ts', '^test/reliability/'], {
    cwd: repo,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  code = await new Promise<number>((resolve) => child.once('close', (c) => resolve(c ?? 1)));
}

// A figure line may follow uvu's own output on the same line (the suite's name).
const figures = [...output.matchAll(/\[figure\] ([^:\n]+(?::[^:\n]+)?): (.*)$/gm)].map((m) => [m[1], m[2]] as const);
const seconds = /^duration: ([\d.]+) s$/m.exec(output)?.[1] ?? '?';
const requests = /bad input: requests sent: (\d+)/.exec(output)?.[1] ?? env.RELIABILITY_REQUESTS;
const summary = /^(\d+) passed, (\d+) failed.*$/m.exec(output)?.[0] ?? 'no summary';
const cpus = os.cpus();
const table = [
  `Run of ${new Date().toISOString().slice(0, 10)}: \`RELIABILITY_REQUESTS=${requests} npm run ` +
    `test:reliability\`, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} ` +
    `GiB, the embedded database; ${Math.round(Number(seconds))} s, tests: ${summary}.`,
  '',
  '| figure | value |',
  '|---|---|',
  ...figures.map(([name, value]) => `| ${name} | ${value.replace(/\|/g, '\\|')} |`),
].join('\n');
const file = path.join(repo, 'RELIABILITY.md');
const text = await fs.readFile(file, 'utf8');
const begin = '<!-- figures: written by npm run test:reliability -->';
const end = '<!-- end of figures -->';
const at = text.indexOf(begin);
const stop = text.indexOf(end);
if (at < 0 || stop < at) throw new Error(`RELIABILITY.md lacks the markers ${begin} … ${end}`);
await fs.writeFile(file, `${text.slice(0, at + begin.length)}\n${table}\n${text.slice(stop)}`);
process.stdout.write(`RELIABILITY.md: ${figures.length} figures written\n`);
process.exit(code);
