// Which screens are on the wall and which went dark. The process holding a screen's socket records
// that it is seen; every process sweeps for screens silent longer than SCREEN_OFFLINE_AFTER_MS. Each
// change of state is claimed under a unique _id per online period ("<screen>:off:<n>",
// "<screen>:on:<n>"), so `screen:offline` and `screen:online` reach the organization once, however many
// hub processes notice.
import { insertOnce } from '../../db/errors.js';
import { KeyedLock } from '../../db/keyed-lock.js';
import type { Database } from '../../db/database.js';
import type { Lane } from '../../db/lane.js';
import { screenModels, type ScreenModels } from './models.js';

/** How a change of state is announced: to the screen's organization. */
export type HealthEmit = (
  organizationId: number,
  event:
    | { kind: 'offline'; screenId: number; monitorId: number; since: string }
    | { kind: 'online'; screenId: number; monitorId: number },
) => void;

/** A screen's report of what it shows (`screen:report`). */
export interface ScreenReport {
  versionShown: number;
  pageVersion: string;
}

/** Health of screens on one database. */
export class ScreenHealth {
  // One health write per screen at a time here: FerretDB applies an update by reading and writing the
  // whole document, so two at once (a connect's user agent, a heartbeat's lastSeen) could lose a field.
  private readonly writes = new KeyedLock<number>(1_000);
  // Writes not yet settled: a stopping process waits for them (its screens' disconnects) before the
  // database closes, so none fails with "client was closed".
  private readonly pending = new Set<Promise<unknown>>();

  private readonly models: ScreenModels;
  // Nobody waits for these writes: they take a few of the pool's connections at most, so that a storm
  // of screens connecting gets its credentials and data read first (server/db/lane.ts).
  private readonly lane: Lane;
  // When this process last wrote each of its screens' lastSeen with the write that also sees whether it
  // is online (a connect or a refresh; reports do not count, so they never postpone that look): a sweep
  // refreshes it once it is a fifth of SCREEN_OFFLINE_AFTER_MS old (every other sweep by default: 30 s).
  private readonly written = new Map<number, number>();
  private readonly refreshMs: number;

  constructor(
    db: Pick<Database, 'conn' | 'bookkeeping'>,
    private readonly offlineAfterMs: number,
    private readonly emit: HealthEmit,
  ) {
    this.models = screenModels(db);
    this.lane = db.bookkeeping;
    this.refreshMs = offlineAfterMs / 5;
  }

  /** A screen's socket connected here (or is still here): it is seen now, and online again if it was not. */
  connected(screenId: number, userAgent: string | null, still = false): Promise<void> {
    return this.write(screenId, () => this.record(screenId, userAgent, still));
  }

  /** Resolves once every write started so far has settled. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  // A screen's write: after its earlier ones (the per-screen lock), on the bookkeeping lane, and waited
  // for by a stopping process.
  private write<T>(screenId: number, task: () => Promise<T>): Promise<T> {
    return this.track(this.writes.run(screenId, () => this.lane.run(task)));
  }

  private track<T>(write: Promise<T>): Promise<T> {
    this.pending.add(write);
    const done = () => void this.pending.delete(write);
    write.then(done, done);
    return write;
  }

  private async record(screenId: number, userAgent: string | null, still: boolean): Promise<void> {
    const now = new Date();
    // One exact-_id command: the write, answered with the document as it was before it (without a
    // projection: FerretDB's findAndModify has none).
    const screen = await this.models.Screen.findOneAndUpdate(
      { _id: String(screenId) },
      { $set: still ? { lastSeen: now } : { lastSeen: now, userAgent } },
      { returnDocument: 'before' },
    ).lean();
    if (!screen) return;
    this.written.set(screenId, now.getTime());
    if (screen.online) return;
    const episode = screen.episode + 1;
    if (!(await this.claim(`${screenId}:on:${episode}`))) return;
    await this.models.Screen.updateOne({ _id: screen._id }, { $set: { online: true, episode } });
    this.emit(screen.organizationId, { kind: 'online', screenId, monitorId: screen.monitorId });
  }

  /** Screens whose sockets are here are seen now (also when they disconnect). */
  async seen(screenIds: Iterable<number>): Promise<void> {
    const now = new Date();
    await Promise.all(
      [...screenIds].map((id) =>
        this.write(id, () => this.models.Screen.updateOne({ _id: String(id) }, { $set: { lastSeen: now } })),
      ),
    );
  }

  /** Records what a screen shows. */
  async report(screenId: number, report: ScreenReport): Promise<void> {
    await this.write(screenId, () =>
      this.models.Screen.updateOne(
        { _id: String(screenId) },
        { $set: { versionShown: report.versionShown, pageVersion: report.pageVersion, lastSeen: new Date() } },
      ),
    );
  }

  /**
   * Marks screens offline that were silent too long. Those connected here are seen again once their
   * lastSeen written here is a fifth of the offline time old, and brought back online then should
   * another process have marked them offline while they were moving here.
   */
  sweep(here: Set<number>, now = Date.now()): Promise<void> {
    return this.track(this.sweepOnce(here, now));
  }

  private async sweepOnce(here: Set<number>, now: number): Promise<void> {
    for (const id of this.written.keys()) if (!here.has(id)) this.written.delete(id);
    const due = [...here].filter((id) => now - (this.written.get(id) ?? -Infinity) >= this.refreshMs);
    await Promise.all(due.map((id) => this.connected(id, null, true)));
    // A scan of the small screen documents, once per sweep interval on each process.
    const stale = await this.models.Screen.find({
      online: true,
      lastSeen: { $lt: new Date(now - this.offlineAfterMs) },
    }).lean();
    for (const screen of stale) {
      const screenId = Number(screen._id);
      if (here.has(screenId) || !screen.lastSeen) continue;
      if (!(await this.claim(`${screenId}:off:${screen.episode}`))) continue;
      await this.writes.run(screenId, () =>
        this.models.Screen.updateOne({ _id: screen._id }, { $set: { online: false } }),
      );
      this.emit(screen.organizationId, {
        kind: 'offline',
        screenId,
        monitorId: screen.monitorId,
        since: screen.lastSeen.toISOString(),
      });
    }
  }

  private claim(id: string): Promise<boolean> {
    return insertOnce(this.models.ScreenClaim, { _id: id, at: new Date() });
  }
}
