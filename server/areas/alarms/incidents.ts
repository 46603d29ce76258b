// One incident, one alarm (docs/inputs.md "One incident, one alarm"): an input's alarm whose dispatch
// number — or, without one, whose keyword and address — equals that of an alarm of the organization that
// still runs and started within MERGE_WINDOW_MS updates that alarm (the fields it lacked, its sources)
// instead of raising a second. Whichever document comes first raises; the e-mail and the fax of one
// incident ring the members once, as do the repeats of a pager telegram. The first claims the incident by a unique insert
// (incident-models.ts), so two documents on two processes at once still raise one alarm.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/database.js';
import { withClaimLock } from '../../db/claim-lock.js';
import { insertOnce } from '../../db/errors.js';
import type { AlarmCommands, AlarmInput } from './commands.js';
import { incidentModels, type IncidentModels } from './incident-models.js';
import type { AlarmDoc, AlarmSourceEntry } from './models.js';
import { alarmLockKey, type AlarmRecords } from './records.js';
import type { AlarmWall } from './wall.js';

/** A later document of the incident merges within this time of the alarm's start. */
export const MERGE_WINDOW_MS = 30 * 60_000;
/** How long a later document waits for the alarm its incident's claim names to be stored. */
const STORED_WITHIN_MS = 10_000;
/** Alarms followed from a claim to the running one: more within the merge window is a storm of ended alarms. */
const MAX_FOLLOWERS = 50;

/** An alarm as an input describes it. */
export interface IncidentInput extends AlarmInput {
  dispatchNumber: string | null;
  keyword: string | null;
  /** The incident's key when the input knows it (a pager code); else it comes from the fields. */
  incident?: string;
}

export interface IncidentOutcome {
  alarmId: number;
  outcome: 'raised' | 'merged';
}

// Case, spaces and punctuation do not tell two incidents apart ("4711-2026" and "4711 2026").
const normal = (value: string) =>
  value
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The incident's key: its dispatch number, else its keyword (or event) and address; null when it has neither. */
export function incidentKey(
  input: Pick<IncidentInput, 'dispatchNumber' | 'keyword' | 'event' | 'address' | 'incident'>,
): string | null {
  if (input.incident) return input.incident.slice(0, 200);
  if (input.dispatchNumber && normal(input.dispatchNumber)) return `n:${normal(input.dispatchNumber)}`.slice(0, 200);
  const address = normal(input.address ?? '');
  if (!address) return null;
  return `k:${normal(input.keyword || input.event)}|${address}`.slice(0, 400);
}

/** Raises input alarms, one per incident. */
export class Incidents {
  private readonly models: IncidentModels;

  constructor(
    private readonly db: Database,
    private readonly commands: Pick<AlarmCommands, 'raise'>,
    private readonly records: Pick<AlarmRecords, 'find' | 'models'>,
    private readonly wall: Pick<AlarmWall, 'rewriteSoon'>,
  ) {
    this.models = incidentModels(db);
  }

  /** The incident's alarm: raised now, or the running one it merged into. */
  async raise(organizationId: number, input: IncidentInput, source: AlarmSourceEntry): Promise<IncidentOutcome> {
    const key = incidentKey(input);
    const { dispatchNumber: _n, keyword: _k, incident: _i, ...alarm } = input;
    const fields: AlarmInput = { ...alarm, sources: [source] };
    if (!key) return { alarmId: (await this.commands.raise(organizationId, 'input', fields)).id, outcome: 'raised' };
    const _id = `${organizationId}:${key}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      // A running incident first: a merge draws no alarm ID.
      const known = await this.models.Incident.findById(_id).lean();
      const open = known ? await this.stored(known.alarmId, known.at) : null;
      if (open && open.organizationId === organizationId && this.open(open) && (await this.merge(open, input, source)))
        return { alarmId: open.id, outcome: 'merged' };
      const alarmId = await this.db.ids.next('alarm');
      if (await this.claim(_id, organizationId, alarmId)) {
        await this.commands.raise(organizationId, 'input', fields, alarmId);
        return { alarmId, outcome: 'raised' };
      }
      // The claim is another's: its alarm, or, once that is over (ended, too old, or never stored: its
      // process died), the alarm of the document that followed it. Who follows an alarm is decided by a
      // unique insert ("<claim>><alarmId>") too — a conditional update would not do: on the embedded
      // engine two at once both match (docs/storage.md "Rules for a model").
      let held = await this.models.Incident.findById(_id).lean();
      for (let step = 0; held && step < MAX_FOLLOWERS; step++) {
        const running = await this.stored(held.alarmId, held.at);
        if (
          running &&
          running.organizationId === organizationId &&
          this.open(running) &&
          (await this.merge(running, input, source))
        )
          return { alarmId: running.id, outcome: 'merged' };
        const next = `${_id}>${held.alarmId}`;
        if (await this.claim(next, organizationId, alarmId)) {
          // The incident's claim names the new alarm for the documents after; only its follower writes it.
          await this.models.Incident.updateOne({ _id }, { $set: { alarmId, at: new Date() } });
          await this.commands.raise(organizationId, 'input', fields, alarmId);
          return { alarmId, outcome: 'raised' };
        }
        held = await this.models.Incident.findById(next).lean();
      }
    }
    throw new Error('the incident was claimed and released too often at once');
  }

  /** Removes claims past the merge window (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    const old = new Date(now - MERGE_WINDOW_MS - STORED_WITHIN_MS);
    return (await this.models.Incident.deleteMany({ at: { $lt: old } })).deletedCount;
  }

  // True when this insert took the key.
  private claim(_id: string, organizationId: number, alarmId: number): Promise<boolean> {
    return insertOnce(this.models.Incident, { _id, organizationId, alarmId, at: new Date() });
  }

  private open(alarm: AlarmDoc): boolean {
    return !alarm.endedAt && Date.now() - alarm.startedAt.getTime() < MERGE_WINDOW_MS;
  }

  // The claim's alarm, waited for while its raise may still be storing it.
  private async stored(alarmId: number, claimedAt: Date): Promise<AlarmDoc | null> {
    for (;;) {
      const doc = await this.records.find(alarmId);
      if (doc || Date.now() - claimedAt.getTime() > STORED_WITHIN_MS) return doc;
      await sleep(100);
    }
  }

  // The fields the alarm lacked, and the source; the wall shows the new place at once. Nobody is rung again.
  // Under the alarm's lock, read afresh (an end, or another document of the incident, may have landed):
  // false when the alarm is over by then, and the document's incident starts anew.
  private async merge(running: AlarmDoc, input: IncidentInput, source: AlarmSourceEntry): Promise<boolean> {
    const merged = await withClaimLock(this.db.system.Lock, alarmLockKey(running.id), async () => {
      const alarm = await this.records.find(running.id);
      if (!alarm || !this.open(alarm)) return false;
      return { moved: await this.mergeInto(alarm, input, source) };
    });
    if (merged && merged.moved) this.wall.rewriteSoon(merged.moved);
    return merged !== false;
  }

  // The merged alarm when the wall must show a new place, else null.
  private async mergeInto(alarm: AlarmDoc, input: IncidentInput, source: AlarmSourceEntry): Promise<AlarmDoc | null> {
    const lacked: Partial<AlarmDoc> = {};
    if (!alarm.message && input.message) lacked.message = input.message.slice(0, 10_000);
    if (!alarm.address && input.address) lacked.address = input.address.slice(0, 500);
    if (alarm.latitude === null && input.latitude !== undefined && input.longitude !== undefined) {
      lacked.latitude = input.latitude;
      lacked.longitude = input.longitude;
    }
    if (alarm.units.length === 0 && input.units?.length) lacked.units = input.units;
    const alarms = await this.records.models.alarms.of(alarm.organizationId);
    // Each input once: the repeats of a pager telegram do not grow the alarm.
    const listed = (alarm.sources ?? []).some((s) => s.inputId === source.inputId);
    if (listed && Object.keys(lacked).length === 0) return null;
    await alarms.updateOne({ _id: alarm._id }, { $set: lacked, ...(listed ? {} : { $push: { sources: source } }) });
    return Object.keys(lacked).length > 0 ? this.records.find(alarm.id) : null;
  }
}
