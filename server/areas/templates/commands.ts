// Alarm templates (TP1–TP3): load, authorize, write. Members read an organization's templates; its admins
// and API key write them. The alarm inputs (a call PIN, a pager code, a things rule) ask for one by ID.
import type { TP1Input, AlarmTemplateView } from '../../../schemas/templates.js';
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import { templateModels, type TemplateDoc } from './models.js';

const NOT_FOUND = 'Alarm template not found';
const WRITERS = "Alarm templates are written by organization admins and the organization's API key";

/** The alarm templates of organizations. */
export class TemplateCommands {
  // An organization's templates, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly byOrganization: IdIndex;

  constructor(private readonly db: Database) {
    const { AlarmTemplate, AlarmTemplateIndex } = templateModels(db);
    this.byOrganization = new IdIndex(AlarmTemplateIndex, db.system.Lock, 'templates', async (organizationId) =>
      (await AlarmTemplate.find({ organizationId: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
  }

  /** TP2: the organization's templates in ID order. */
  async list(actor: Actor, organizationId: number): Promise<AlarmTemplateView[]> {
    if (!canRead(actor, organizationId)) throw forbidden('Not allowed in this organization');
    const { AlarmTemplate } = templateModels(this.db);
    const docs = await this.byOrganization.load(organizationId, (id) => AlarmTemplate.findById(id).lean());
    return docs
      .filter((d) => d.organizationId === organizationId)
      .map(presentTemplate)
      .sort((a, b) => a.id - b.id);
  }

  /** TP1: a new template of an organization the actor configures. */
  async create(actor: Actor, input: TP1Input): Promise<AlarmTemplateView> {
    if (!canConfigure(actor, input.organizationID)) throw forbidden(WRITERS);
    const id = String(await this.db.ids.next('alarmTemplate'));
    await this.byOrganization.add(input.organizationID, id);
    const doc = await templateModels(this.db).AlarmTemplate.create({
      _id: id,
      organizationId: input.organizationID,
      ...fieldsOf(input),
    });
    return presentTemplate(doc.toObject());
  }

  /** TP3 GET: a template the actor may read; another organization's is not found. */
  async get(actor: Actor, id: number): Promise<AlarmTemplateView> {
    return presentTemplate(await this.readable(actor, id));
  }

  /** TP3 PUT: replaces a template; it stays in its organization. */
  async update(actor: Actor, id: number, input: TP1Input): Promise<AlarmTemplateView> {
    const current = await this.writable(actor, id);
    if (input.organizationID !== current.organizationId)
      throw badRequest('invalid_body', 'Alarm template in wrong format or required field missing', [
        { in: 'body', path: 'organizationID', problem: "cannot be changed (must be the template's own)" },
      ]);
    const doc = await templateModels(this.db)
      .AlarmTemplate.findOneAndUpdate({ _id: current._id }, { $set: fieldsOf(input) }, { returnDocument: 'after' })
      .lean();
    if (!doc) throw notFound(NOT_FOUND);
    return presentTemplate(doc);
  }

  /** TP3 DELETE: removes a template; alarms raised with it keep what it said then. */
  async remove(actor: Actor, id: number): Promise<{ status: 'deleted' }> {
    const current = await this.writable(actor, id);
    await templateModels(this.db).AlarmTemplate.deleteOne({ _id: current._id });
    await this.byOrganization.remove(current.organizationId, current._id);
    return { status: 'deleted' };
  }

  /** The organization's template of this ID, for an alarm an input raises; null when it names none of its. */
  async forAlarm(organizationId: number, id: number | null | undefined): Promise<TemplateDoc | null> {
    if (!id || !Number.isSafeInteger(id) || id < 1) return null;
    const doc = await templateModels(this.db).AlarmTemplate.findById(String(id)).lean();
    return doc?.organizationId === organizationId ? doc : null;
  }

  private async readable(actor: Actor, id: number): Promise<TemplateDoc> {
    const doc = await templateModels(this.db).AlarmTemplate.findById(String(id)).lean();
    if (!doc || !canRead(actor, doc.organizationId)) throw notFound(NOT_FOUND);
    return doc;
  }

  private async writable(actor: Actor, id: number): Promise<TemplateDoc> {
    const doc = await this.readable(actor, id);
    if (!canConfigure(actor, doc.organizationId)) throw forbidden(WRITERS);
    return doc;
  }
}

function fieldsOf(input: TP1Input): Omit<TemplateDoc, '_id' | 'organizationId'> {
  return {
    name: input.name,
    event: input.event,
    message: input.message ?? '',
    units: input.units ?? [],
    channels: input.channels ?? null,
    monitorIds: input.monitorIds ?? null,
    updatedAt: new Date(),
  };
}

/** A template as TP1–TP3 answer it. */
export function presentTemplate(doc: TemplateDoc): AlarmTemplateView {
  return {
    id: Number(doc._id),
    organizationId: doc.organizationId,
    name: doc.name,
    event: doc.event,
    message: doc.message,
    units: doc.units,
    channels: doc.channels,
    monitorIds: doc.monitorIds,
    updatedAt: doc.updatedAt.toISOString(),
  };
}
