// Writes made in the same moment, sent as one command: an alarm's deliveries go out many at a time, and
// each push stores its confirmation token, each SMS its answer link and the note of its number
// (docs/alarms.md "Answering without the app").
// The embedded engine takes one insertMany of 25 documents in about a fortieth of the time of 25 single
// inserts (it writes one at a time), so the batch keeps an alarm's SMS from waiting on their bookkeeping.

/** Collects items until the current turn of the event loop ends (or `max` are waiting), then writes them at once. */
export class WriteBatch<T> {
  private waiting: Array<{ item: T; settle: (err?: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    /**
     * Writes the items; a failure fails every item of the batch. It may answer each item instead: an array
     * of their errors, null for each one written.
     */
    private readonly write: (items: T[]) => Promise<void | Array<unknown>>,
    private readonly max = 250,
  ) {}

  /** Resolves once the item's batch is written; rejects with the batch's failure, or the item's own. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, settle: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.waiting.length >= this.max) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    this.write(batch.map((b) => b.item)).then(
      (answers) => batch.forEach((b, i) => b.settle(Array.isArray(answers) ? (answers[i] ?? undefined) : undefined)),
      (err: unknown) => batch.forEach((b) => b.settle(err ?? new Error('batch write failed'))),
    );
  }
}

/** Per item of an unordered bulk write: its error ({code, message}), or null. Throws what is no such failure. */
export function itemErrors(err: unknown, count: number): Array<{ code?: number; message?: string } | null> {
  const failed = (err as { writeErrors?: Array<{ index: number; code?: number; errmsg?: string }> }).writeErrors;
  if (!Array.isArray(failed)) throw err;
  const byIndex = new Map(failed.map((e) => [e.index, { code: e.code, message: e.errmsg }]));
  return Array.from({ length: count }, (_, i) => byIndex.get(i) ?? null);
}
