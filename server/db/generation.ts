// Caches of facts read from the database (a monitor's organization, a journal's head, a version's
// body) hold only as long as the database's history does. `admin backup restore --replace` replaces
// that history under running processes: each process notices the restore mark the command leaves
// (server/db/restores.ts) and moves the generation on, and every Recent and ByteCache of the process
// empties itself at its next use. (docs/operating.md, "Backups".)

let current = 0;

/** The process's cache generation: a cache filled under another one holds nothing. */
export function cacheGeneration(): number {
  return current;
}

/** Drops every cached fact of this process (lazily: each cache at its next use). */
export function forgetCachedFacts(): void {
  current++;
}
