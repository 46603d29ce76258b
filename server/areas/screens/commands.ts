// The screen fleet's commands (F3–F8): pair, list, remove, command, test alarm. Load → authorize →
// write → publish, like every area; the hub delivers commands and test alarms.
import type { Database } from '../../db/database.js';
import { KeptReads } from '../../db/fresh-reads.js';
import { isDuplicateKey } from '../../db/errors.js';
import { IdIndex } from '../../db/id-index.js';
import { forbidden, notFound, rateLimited } from '../../errors.js';
import type { Limiter, Limits } from '../../http/limits.js';
import type { CredentialEvents, ScreenEvents } from '../../hub/events.js';
import type { ScreenCommandName } from '../../../common/hub-protocol.js';
import type { Actor } from '../../identity/actor.js';
import { revokeCredential } from '../../identity/lookup.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { MonitorCommands } from '../monitor/commands.js';
import { removedMark, screenModels, type ScreenDoc } from './models.js';
import { Pairings } from './pairing.js';
import { presentScreen, type ScreenView } from './presenter.js';

/** How long a command waits for the screens' acknowledgements. */
export const COMMAND_TIMEOUT_MS = 5_000;

/** Wrong pairing codes one credential may try per minute (codes are guessed at F3, not at the screen). */
const WRONG_CODES_PER_MINUTE = 10;
/**
 * How long a test alarm read for a subscribing screen answers the next ones (changes here and on other processes
 * replace it at once).
 */
const TEST_ALARM_TRUST_MS = 5_000;

/** What F6/F7 answer. */
export interface CommandResult {
  acknowledged: number[];
  missing: number[];
}

/** Commands of the screen fleet. */
export class ScreenCommands {
  readonly pairings: Pairings;
  private readonly wrongCodes: Limiter;

  // A monitor's screens, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly byMonitor: IdIndex;
  // The test alarm stored per monitor, read once for the screens subscribing in a few seconds and kept
  // up to date by the test alarms started on any process (docs/hub.md "Reconnect storms").
  private readonly testAlarms: KeptReads<number, { message: string; endsAt: Date } | null>;

  constructor(
    private readonly db: Database,
    private readonly monitors: MonitorCommands,
    private readonly events: ScreenEvents & CredentialEvents,
    limits: Limits,
  ) {
    this.pairings = new Pairings(db);
    const { Screen, ScreenIndex } = screenModels(db);
    this.byMonitor = new IdIndex(ScreenIndex, db.system.Lock, 'screens', async (monitorId) =>
      (await Screen.find({ monitorId: Number(monitorId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
    this.testAlarms = new KeptReads(
      (monitorId) => screenModels(db).TestAlarm.findById(String(monitorId), { message: 1, endsAt: 1 }).lean(),
      TEST_ALARM_TRUST_MS,
      db.generation,
    );
    events.onTestAlarm(({ monitorId, message, endsAt }) =>
      this.testAlarms.changed(monitorId, { message, endsAt: new Date(endsAt) }),
    );
    this.wrongCodes = limits.create('wrong-pairing-codes', WRONG_CODES_PER_MINUTE / 60, WRONG_CODES_PER_MINUTE);
  }

  /** F3: binds a waiting screen's code to a monitor of the caller's organization. */
  async pair(actor: Actor, monitorId: number, code: string, name: string): Promise<ScreenView> {
    const monitor = await this.monitors.writable(actor, monitorId);
    // A try is spent before the code is compared, in one atomic take, and given back when it was right:
    // of wrong codes racing from one credential only as many as the limit holds are ever compared (a
    // look first and a take after let a burst of concurrent guesses all through).
    const key = String(actor.tokenId);
    const wait = await this.wrongCodes.take(key);
    if (wait) throw rateLimited(wait);
    let created: ScreenDoc | null = null;
    await this.pairings.bind(code, async () => {
      const id = await this.db.ids.next('screen');
      await this.byMonitor.add(monitorId, String(id));
      created = (
        await screenModels(this.db).Screen.create({
          _id: String(id),
          monitorId,
          organizationId: monitor.organizationID,
          name,
          createdAt: new Date(),
        })
      ).toObject();
      return id;
    });
    // A wrong code (or a failed bind) keeps its try spent; the right code is no wrong try.
    await this.wrongCodes.give(key, 1);
    return presentScreen(created!);
  }

  /** F4: the screens of a monitor, for members of its organization. */
  async list(actor: Actor, monitorId: number): Promise<ScreenView[]> {
    await this.monitors.readable(actor, monitorId);
    return (await this.screensOf(monitorId)).map(presentScreen);
  }

  /** F5: removes a screen; its token is revoked and its sockets are disconnected. */
  async remove(actor: Actor, screenId: number): Promise<void> {
    await this.configurable(actor, screenId);
    // Said before the screen is read, for a pairing's poll storing the screen's first token at this
    // moment (pairing.ts): either this read sees its token, or the poll sees this mark and revokes it.
    await screenModels(this.db)
      .ScreenClaim.create({ _id: removedMark(screenId), at: new Date() })
      .catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      });
    const screen = await this.configurable(actor, screenId);
    if (screen.credential) {
      await revokeCredential(this.db, screen.credential);
      // Every process, not only this one, refuses the token from the answer on (REST and handshakes).
      await this.events.credentialRevoked(screen.credential);
    }
    await screenModels(this.db).Screen.deleteOne({ _id: screen._id });
    await this.byMonitor.remove(screen.monitorId, screen._id);
    this.events.disconnectScreen(screenId);
  }

  /** F6: a command to one screen. */
  async command(actor: Actor, screenId: number, command: ScreenCommandName): Promise<CommandResult> {
    await this.configurable(actor, screenId);
    return this.send([screenId], command);
  }

  /** F7: a command to every screen of a monitor. */
  async commandMonitor(actor: Actor, monitorId: number, command: ScreenCommandName): Promise<CommandResult> {
    await this.monitors.writable(actor, monitorId);
    return this.send(
      (await this.screensOf(monitorId)).map((s) => Number(s._id)),
      command,
    );
  }

  /** F8: a test alarm on a monitor's screens; the monitor's data, versions and log stay untouched. */
  async testAlarm(
    actor: Actor,
    monitorId: number,
    message: string,
    durationSeconds: number,
  ): Promise<{ endsAt: string }> {
    await this.monitors.writable(actor, monitorId);
    const endsAt = new Date(Date.now() + durationSeconds * 1000);
    await screenModels(this.db).TestAlarm.replaceOne({ _id: String(monitorId) }, { message, endsAt }, { upsert: true });
    this.events.testAlarm({ monitorId, message, endsAt: endsAt.toISOString() });
    return { endsAt: endsAt.toISOString() };
  }

  /** The test alarm running on a monitor now, if any (sent to screens that subscribe meanwhile). */
  async runningTestAlarm(monitorId: number, now = Date.now()): Promise<{ message: string; endsAt: string } | null> {
    const found = await this.testAlarms.get(monitorId);
    return found && found.endsAt.getTime() > now
      ? { message: found.message, endsAt: found.endsAt.toISOString() }
      : null;
  }

  private async send(screenIds: number[], command: ScreenCommandName): Promise<CommandResult> {
    const answered = new Set(
      screenIds.length ? await this.events.commandScreens(screenIds, command, COMMAND_TIMEOUT_MS) : [],
    );
    return {
      acknowledged: screenIds.filter((id) => answered.has(id)),
      missing: screenIds.filter((id) => !answered.has(id)),
    };
  }

  private async screensOf(monitorId: number): Promise<ScreenDoc[]> {
    const { Screen } = screenModels(this.db);
    const docs = (await this.byMonitor.load(monitorId, (id) => Screen.findById(id).lean())).filter(
      (d) => d.monitorId === monitorId,
    );
    return docs.sort((a, b) => Number(a._id) - Number(b._id));
  }

  private async configurable(actor: Actor, screenId: number): Promise<ScreenDoc> {
    const screen = await screenModels(this.db).Screen.findById(String(screenId)).lean();
    if (!screen || !canRead(actor, screen.organizationId)) throw notFound('Screen not found');
    if (!canConfigure(actor, screen.organizationId))
      throw forbidden("Managing screens needs an organization admin or the organization's API key");
    return screen;
  }
}
