// What the benchmarks read about their processes on Linux.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

// CPU time in ms a process has used (user + system, from /proc on Linux, 100 ticks a second); NaN
// where it cannot be read (another system, a database this run did not start).
export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * The embedded database's process, from the launcher's state file in its data directory; undefined when it was not
 * started there.
 */
export async function embeddedDatabasePid(dataDir: string): Promise<number | undefined> {
  return (
    JSON.parse(await fs.readFile(path.join(dataDir, 'embedded-db.json'), 'utf8').catch(() => '{}')) as {
      childPid?: number;
    }
  ).childPid;
}
