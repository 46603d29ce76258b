// Writes made in the same moment, sent as one command: an alarm's deliveries go out many at a time, and
// each push stores its confirmation token, each SMS the note of its number
// (docs/alarms.md "Answering without the app"), each try its take and its outcome.
// The embedded engine takes one insertMany of 25 documents in about a fortieth of the time of 25 single
// inserts (it writes one at a time), so the batch keeps an alarm's SMS from waiting on their bookkeeping.
// One write of a batch is under way at a time: what is added meanwhile waits for it and goes in the next
// command, together (a group commit). Under load the batches grow instead of the commands queueing at the
// database: 1,500 deliveries' tries were about 300 commands of ten when every turn wrote its own.

/** Collects items until the current turn of the event loop ends and no write of the batch is under way, then writes them at once. */
export class WriteBatch<T> {
  private waiting: Array<{ item: T; settle: (err?: unknown) => void }> = [];
  private scheduled = false;
  private writing = false;

  constructor(
    /**
     * Writes the items; a failure fails every item of the batch. It may answer each item instead: an array
     * of their errors, null for each one written.
     */
    private readonly write: (items: T[]) => Promise<void | Array<unknown>>,
    /** Items per command at most. */
    private readonly max = 250,
  ) {}

  /** Resolves once the item's batch is written; rejects with the batch's failure, or the item's own. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, settle: (err) => (err === undefined ? resolve() : reject(err)) });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting.splice(0, this.max);
    if (batch.length === 0) return;
    this.writing = true;
    // Called in a turn of its own: a write that throws before its promise is settles its batch too.
    Promise.resolve()
      .then(() => this.write(batch.map((b) => b.item)))
      .then(
        (answers) => batch.forEach((b, i) => b.settle(Array.isArray(answers) ? (answers[i] ?? undefined) : undefined)),
        (err: unknown) => batch.forEach((b) => b.settle(err ?? new Error('batch write failed'))),
      )
      .finally(() => {
        this.writing = false;
        this.schedule();
      });
  }
}

/** Per item of an unordered bulk write: its error ({code, message}), or null. Throws what is no such failure. */
export function itemErrors(err: unknown, count: number): Array<{ code?: number; message?: string } | null> {
  const failed = (err as { writeErrors?: Array<{ index: number; code?: number; errmsg?: string }> }).writeErrors;
  if (!Array.isArray(failed)) throw err;
  const byIndex = new Map(failed.map((e) => [e.index, { code: e.code, message: e.errmsg }]));
  return Array.from({ length: count }, (_, i) => byIndex.get(i) ?? null);
}

/** A batch's write that inserts the items unordered and answers each: null when stored, else its error. */
export const insertEach =
  <T>(model: { insertMany(docs: T[], options: { ordered: false; lean: true }): Promise<unknown> }) =>
  async (docs: T[]) => {
    try {
      await model.insertMany(docs, { ordered: false, lean: true });
      return docs.map(() => null);
    } catch (err) {
      return itemErrors(err, docs.length);
    }
  };
