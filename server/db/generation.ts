// Caches of facts read from the database (a monitor's organization, a journal's head, a version's
// body) hold only as long as the database's history does. `admin backup restore --replace` replaces
// that history under running processes: each process notices the restore mark the command leaves
// (server/db/restores.ts) and moves its database's generation on, and every Recent and ByteCache built
// on that database empties itself at its next use (docs/operating.md, "Backups"). The generation
// belongs to the database a service opened, so two services in one process never share it.

/** The generation of one opened database's cached facts: a cache filled under another one holds nothing. */
export class CacheGeneration {
  private n = 0;

  /** The generation now. */
  get current(): number {
    return this.n;
  }

  /** Drops every cached fact of this database (lazily: each cache at its next use). */
  forget(): void {
    this.n++;
  }
}
