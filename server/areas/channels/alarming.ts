// Per-organization alarming configurations (S1–S4, C1–C4): a number and pin that may raise an alarm
// (call adds the alarm template). One implementation, parameterised by the channel's model.
import type { Model } from 'mongoose';
import type { AlarmingCreateInput, AlarmingUpdateInput } from '../../../schemas/channels.js';
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import { checkGsm } from './fields.js';
import { channelModels, type AlarmingDoc } from './models.js';
import { uniquely } from './unique.js';

/** A configuration as returned. */
export interface AlarmingView {
  id: number;
  gsm: string;
  organizationID: number;
  pin: string;
  alarmTemplateID?: number;
}

const PAYLOAD = 'Payload missing or invalid';
// The unique index on (organizationID, gsm) decides races between creates and updates.
const TAKEN = 'This gsm number already has an alarming configuration in the organization';

function present(doc: AlarmingDoc): AlarmingView {
  const view: AlarmingView = { id: Number(doc._id), gsm: doc.gsm, organizationID: doc.organizationID, pin: doc.pin };
  if (doc.alarmTemplateID !== undefined) view.alarmTemplateID = doc.alarmTemplateID;
  return view;
}

/** Alarming configurations of one channel. */
export class AlarmingConfigs {
  // An organization's configurations ("<idName>:<organization ID>"), listed by exact lookups.
  private readonly byOrganization: IdIndex;
  // The configurations of a number in every organization ("<idName>-gsm:<gsm>"): what an inbound SMS
  // or call is matched against (docs/alarms.md "Raised").
  private readonly byNumber: IdIndex;

  constructor(
    private readonly db: Database,
    private readonly model: Model<AlarmingDoc>,
    private readonly idName: string,
  ) {
    this.byOrganization = new IdIndex(channelModels(db).OwnerIndex, db.system.Lock, idName, async (organizationId) =>
      (await model.find({ organizationID: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
    // Any sender's number is asked for: one that has no configuration leaves no entry behind.
    this.byNumber = new IdIndex(
      channelModels(db).OwnerIndex,
      db.system.Lock,
      `${idName}-gsm`,
      async (gsm) => (await model.find({ gsm: String(gsm) }, { _id: 1 }).lean()).map((d) => d._id),
      false,
    );
  }

  /** Every organization's configuration of this number (00… as stored). */
  async ofNumber(gsm: string): Promise<AlarmingDoc[]> {
    const docs = await this.byNumber.load(gsm, (id) => this.model.findById(id).lean());
    return docs.filter((doc) => doc.gsm === gsm);
  }

  /** S1/C1: members read their organization's configurations, in ID order. */
  async list(actor: Actor, organizationId: number): Promise<AlarmingView[]> {
    if (!canRead(actor, organizationId)) throw forbidden();
    const docs = await this.byOrganization.load(organizationId, (id) => this.model.findById(id).lean());
    return docs
      .filter((d) => d.organizationID === organizationId)
      .map(present)
      .sort((a, b) => a.id - b.id);
  }

  /** S3/C3: admins and the API key create one. */
  async create(actor: Actor, input: AlarmingCreateInput): Promise<AlarmingView> {
    if (!canConfigure(actor, input.organizationID))
      throw forbidden("Alarming configurations are written by organization admins and the organization's API key");
    if (input.gsm !== undefined) input = { ...input, gsm: checkGsm(input.gsm, PAYLOAD) };
    const id = String(await this.db.ids.next(this.idName));
    const fields = {
      organizationID: input.organizationID,
      gsm: input.gsm,
      pin: input.pin,
      alarmTemplateID: input.alarmTemplateID,
    };
    await this.byOrganization.add(input.organizationID, id);
    await this.byNumber.add(input.gsm, id);
    try {
      return present(
        await uniquely(TAKEN, async () =>
          (await this.model.create({ _id: id, ...fields, createdAt: new Date() })).toObject(),
        ),
      );
    } catch (err) {
      // Refused (the number is taken): the ID leaves the index again.
      await this.byOrganization.remove(input.organizationID, id);
      await this.byNumber.remove(input.gsm, id);
      throw err;
    }
  }

  /**
   * S2/C2: the given fields replace the stored ones; the organization cannot change. A revision claim
   * keeps concurrent partial updates (pin here, gsm there) from overwriting each other's fields.
   */
  async update(actor: Actor, input: AlarmingUpdateInput): Promise<AlarmingView> {
    const current = await this.writable(actor, input.id);
    if (input.organizationID !== undefined && input.organizationID !== current.organizationID) {
      throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'organizationID', problem: 'cannot be changed' }]);
    }
    if (input.gsm !== undefined) input = { ...input, gsm: checkGsm(input.gsm, PAYLOAD) };
    const { id: _id, organizationID: _org, ...set } = input;
    // A new number is indexed before it is stored and the old one dropped after: never missed.
    if (input.gsm !== undefined && input.gsm !== current.gsm) await this.byNumber.add(input.gsm, current._id);
    const doc = await uniquely(TAKEN, () => this.db.revisions.change(this.model, current._id, () => set, current));
    if (!doc) throw notFound('Configuration not found');
    if (doc.gsm !== current.gsm) await this.byNumber.remove(current.gsm, current._id);
    return present(doc);
  }

  /** S4/C4: deletes one. */
  async remove(actor: Actor, id: number): Promise<void> {
    const current = await this.writable(actor, id);
    await this.model.deleteOne({ _id: current._id });
    await this.byOrganization.remove(current.organizationID, current._id);
    await this.byNumber.remove(current.gsm, current._id);
  }

  /** Another organization's configuration is a 404; members of its own get a 403. */
  private async writable(actor: Actor, id: number): Promise<AlarmingDoc> {
    const doc = await this.model.findById(String(id)).lean();
    if (!doc || !canRead(actor, doc.organizationID)) throw notFound('Configuration not found');
    if (!canConfigure(actor, doc.organizationID))
      throw forbidden("Alarming configurations are written by organization admins and the organization's API key");
    return doc;
  }
}
