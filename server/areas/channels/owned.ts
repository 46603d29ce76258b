// Owner-scoped resources (devices, mobile and phone numbers): one implementation of spec rule 4 and
// of the reads and writes every such resource shares. Area commands add their own checks around it.
import type { Model } from 'mongoose';
import type { Database } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../../identity/actor.js';
import { roleOf } from '../../identity/lookup.js';
import { reachOwner } from '../../identity/policy.js';

/** What every owner-scoped document has. */
export interface OwnedDoc {
  _id: string;
  ownerID: number;
  active: boolean;
}

/** `refuse` for lists and creates (403), `hide` for one resource by ID (404 when out of reach). */
type Denial = 'refuse' | 'hide';

/** Reads and writes of one owner-scoped collection, with the access rule applied. */
export class OwnedResources<D extends OwnedDoc> {
  constructor(
    private readonly db: Database,
    private readonly model: Model<D>,
    /** Name of the resource in messages and of its ID sequence, e.g. "device". */
    readonly noun: string,
  ) {}

  /** Throws unless the actor reaches resources of `ownerId`, acting in `organizationId` if given. */
  async checkOwner(actor: Actor, organizationId: number | undefined, ownerId: number, denial: Denial): Promise<void> {
    const reach = reachOwner(actor, organizationId, ownerId);
    if (reach.via === 'self') return;
    if (reach.via === 'organization' && (await roleOf(this.db.models, reach.organizationId, ownerId))) return;
    if (denial === 'hide' && (reach.via === 'organization' || reach.status === 404)) throw notFound(`${this.title} not found`);
    throw forbidden(reach.via === 'organization'
      ? `User ${ownerId} is not a member of organization ${reach.organizationId}`
      : 'Not allowed to reach this user\'s resources: name an organization you administer');
  }

  /** The owner's resources in ID order. */
  async list(actor: Actor, ownerId: number, organizationId: number | undefined): Promise<D[]> {
    await this.checkOwner(actor, organizationId, ownerId, 'refuse');
    return this.ofOwner(ownerId);
  }

  /** One resource the actor reaches; 404 when it does not exist or is out of reach. */
  async reachable(actor: Actor, id: number, organizationId: number | undefined): Promise<D> {
    const doc = (await this.model.findById(String(id)).lean()) as D | null;
    if (!doc) throw notFound(`${this.title} not found`);
    await this.checkOwner(actor, organizationId, doc.ownerID, 'hide');
    return doc;
  }

  /** Inserts a new resource for `ownerId` with the next ID. */
  async create(actor: Actor, organizationId: number | undefined, ownerId: number, fields: Omit<D, '_id' | 'ownerID'>): Promise<D> {
    await this.checkOwner(actor, organizationId, ownerId, 'refuse');
    const id = await this.db.ids.next(this.noun);
    const created = await this.model.create({ ...fields, _id: String(id), ownerID: ownerId } as unknown as D);
    return created.toObject() as D;
  }

  /** Replaces the given fields of a reachable resource; the owner cannot change (400 with `message`). */
  async update(actor: Actor, id: number, organizationId: number | undefined, set: Partial<D>, message: string): Promise<D> {
    const current = await this.reachable(actor, id, organizationId);
    if (set.ownerID !== undefined && set.ownerID !== current.ownerID) {
      throw badRequest('invalid_body', message, [{ in: 'body', path: 'ownerID', problem: 'cannot be changed' }]);
    }
    const doc = (await this.model.findOneAndUpdate({ _id: current._id } as never, { $set: set }, { returnDocument: 'after' }).lean()) as D | null;
    if (!doc) throw notFound(`${this.title} not found`);
    return doc;
  }

  /** Deletes a reachable resource. */
  async remove(actor: Actor, id: number, organizationId: number | undefined): Promise<D> {
    const doc = await this.reachable(actor, id, organizationId);
    await this.model.deleteOne({ _id: doc._id });
    return doc;
  }

  /** The owner's resources, without access checks (any-active, alarm delivery). */
  async ofOwner(ownerId: number): Promise<D[]> {
    const docs = (await this.model.find({ ownerID: ownerId }).lean()) as D[];
    return docs.sort((a, b) => Number(a._id) - Number(b._id));
  }

  private get title(): string {
    return this.noun[0].toUpperCase() + this.noun.slice(1);
  }
}
