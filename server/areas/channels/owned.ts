// Owner-scoped resources (devices, mobile and phone numbers): one implementation of spec rule 4 and
// of the reads and writes every such resource shares. Area commands add their own checks around it.
// A user may belong to several organizations; what one of them entered for him belongs to it
// (docs/api.md "The app, sms and call areas"): each resource records the organization whose
// admin or key created it (null: the owner himself). The owner reads and changes all of his; an
// organization reads his own and its own, changes only its own, and never sees another's; an alarm
// of an organization goes to his own and its own only. So no organization reads, redirects or
// silences what another sends.
// A user's resources are found through an owner index ("<noun>:<ownerId>" → IDs, server/db/id-index.ts),
// so listing them and any-active (asked per member and alarm) are exact string-_id lookups on FerretDB
// too, however many users an installation has. An ID is added before its document is written (and
// taken out again when the write is refused) and removed after the document was deleted. Every write
// also keeps the owner's copies true (targets.ts), which an alarm reads instead of the documents.
import type { Model } from 'mongoose';
import type { Database } from '../../db/database.js';
import { readMark } from '../../db/restores.js';
import { IdIndex } from '../../db/id-index.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { membershipsOf, roleOf } from '../../identity/lookup.js';
import { reachOwner } from '../../identity/policy.js';
import { channelModels, type OwnedDoc, type TargetKind } from './models.js';
import { OwnerTargets, refused } from './targets.js';

const targets = new WeakMap<Database, OwnerTargets>();

/** The copies of the database's owners' resources (one per database, every kind registered with it). */
function targetsOf(db: Database): OwnerTargets {
  let found = targets.get(db);
  if (!found)
    targets.set(
      db,
      (found = new OwnerTargets(channelModels(db).OwnerTargets, db.system.Lock, {
        mark: () => readMark(db.conn.db!),
        generation: db.generation,
      })),
    );
  return found;
}

/**
 * An owner's resources of every kind an alarm of the organization may use (his own and its own), in ID
 * order: the alarm's deliveries are built from these, mostly one exact read per member (targets.ts).
 */
export async function usableTargets(
  db: Database,
  ownerId: number,
  organizationId: number,
): Promise<Record<TargetKind, OwnedDoc[]>> {
  const found = await targetsOf(db).of(ownerId);
  const usable = (kind: TargetKind) =>
    (found[kind] ?? []).filter((doc) => usableIn(doc, organizationId)).sort((a, b) => Number(a._id) - Number(b._id));
  return { device: usable('device'), mobile: usable('mobile'), phone: usable('phone') };
}

export type { OwnedDoc } from './models.js';

/** `refuse` for lists and creates (403), `hide` for one resource by ID (404 when out of reach, as when absent). */
type Denial = 'refuse' | 'hide';

/** How the actor reached the owner: as himself, or as an organization of his (by its admin or key). */
type Reached = { via: 'self' } | { via: 'organization'; organizationId: number };

/** The organization a resource belongs to; null: its owner's own. */
const enteredBy = (doc: OwnedDoc): number | null => doc.organizationID ?? null;

/** Whether an alarm or a read in `organizationId` may use the resource: the owner's own, or its own. */
const usableIn = (doc: OwnedDoc, organizationId: number) =>
  enteredBy(doc) === null || enteredBy(doc) === organizationId;

/** Reads and writes of one owner-scoped collection, with the access rule applied. */
export class OwnedResources<D extends OwnedDoc> {
  private readonly byOwner: IdIndex;
  private readonly targets: OwnerTargets;

  constructor(
    private readonly db: Database,
    private readonly model: Model<D>,
    /** Name of the resource in messages and of its ID sequence, e.g. "device". */
    readonly noun: TargetKind,
    /** How many the owner, and each organization for him, may enter (every one is alarmed). */
    private readonly maxPerOwner: number,
  ) {
    // The index was kept from the first resource on: a missing one means none.
    this.byOwner = new IdIndex(channelModels(db).OwnerIndex, db.system.Lock, noun, async () => []);
    this.targets = targetsOf(db);
    this.targets.register(noun, (ownerId) => this.ofOwner(ownerId));
  }

  /**
   * Runs a write of the owner's resources, keeping the copies an alarm reads true (targets.ts): the write
   * calls `inTime()` right before it sends the document's insert, update or delete.
   */
  changing<T>(ownerId: number, write: (inTime: () => void) => Promise<T>): Promise<T> {
    return this.targets.changing(this.noun, ownerId, write);
  }

  /** Throws unless the actor reaches resources of `ownerId`, acting in `organizationId` if given. */
  async checkOwner(
    actor: Actor,
    organizationId: number | undefined,
    ownerId: number,
    denial: Denial,
  ): Promise<Reached> {
    const reach = reachOwner(actor, organizationId, ownerId);
    if (reach.via === 'self') return reach;
    if (reach.via === 'organization' && (await roleOf(this.db, reach.organizationId, ownerId))) return reach;
    // One resource by ID out of reach is answered exactly as one that does not exist, whatever
    // organization_id says: a 403 would tell the caller that the ID exists (docs/api.md, "Errors").
    if (denial === 'hide') throw notFound(`${this.title} not found`);
    throw forbidden(
      reach.via === 'organization'
        ? `User ${ownerId} is not a member of organization ${reach.organizationId}`
        : "Not allowed to reach this user's resources: name an organization you administer",
    );
  }

  /** The owner's resources in ID order (through an organization: his own and its own). */
  async list(actor: Actor, ownerId: number, organizationId: number | undefined): Promise<D[]> {
    const reach = await this.checkOwner(actor, organizationId, ownerId, 'refuse');
    const docs = await this.ofOwner(ownerId);
    return reach.via === 'self' ? docs : docs.filter((doc) => usableIn(doc, reach.organizationId));
  }

  /**
   * One resource the actor reaches; 404 when it does not exist or is out of reach (another
   * organization's is out of reach). `write`: through an organization, only what it entered itself
   * (403 for the owner's own, which only he changes).
   */
  async reachable(
    actor: Actor,
    id: number,
    organizationId: number | undefined,
    right: 'read' | 'write' = 'read',
  ): Promise<D> {
    const doc = (await this.model.findById(String(id)).lean()) as D | null;
    if (!doc) throw notFound(`${this.title} not found`);
    const reach = await this.checkOwner(actor, organizationId, doc.ownerID, 'hide');
    if (reach.via === 'self') return doc;
    if (!usableIn(doc, reach.organizationId)) throw notFound(`${this.title} not found`);
    if (right === 'write' && enteredBy(doc) === null && !(await this.legacyOf(doc, reach.organizationId)))
      throw forbidden(
        `Only its owner changes a ${this.noun} he entered himself; an organization changes only what it entered`,
      );
    return doc;
  }

  /** Inserts a new resource for `ownerId` with the next ID. */
  async create(
    actor: Actor,
    organizationId: number | undefined,
    ownerId: number,
    fields: Omit<D, '_id' | 'ownerID'>,
  ): Promise<D> {
    const reach = await this.checkOwner(actor, organizationId, ownerId, 'refuse');
    const organizationID = reach.via === 'organization' ? reach.organizationId : null;
    // Counted per whoever enters them, so that one organization filling its share blocks no other.
    // Racing creates may pass the count together: a bound on what one alarm sends, not an exact limit.
    const entered = (await this.ofOwner(ownerId)).filter((doc) => enteredBy(doc) === organizationID);
    if (entered.length >= this.maxPerOwner)
      throw conflict(
        'limit_reached',
        `A user has at most ${this.maxPerOwner} ${this.noun}s of his own, and each organization at most ` +
          `${this.maxPerOwner} it entered for him: remove one first`,
      );
    const id = String(await this.db.ids.next(this.noun));
    return this.changing(ownerId, async (inTime) => {
      await this.byOwner.add(ownerId, id);
      try {
        inTime();
        const created = await this.model.create({
          ...fields,
          _id: id,
          ownerID: ownerId,
          organizationID,
        } as unknown as D);
        return created.toObject() as D;
      } catch (err) {
        // Refused (a name already taken): the ID leaves the index again. Should that fail too, the ID names
        // no document, and lists skip what they cannot read; the caller hears of the refusal either way.
        // Failed otherwise (its answer lost), the document may still be stored: the ID stays listed.
        if (refused(err)) await this.byOwner.remove(ownerId, id).catch(() => {});
        throw err;
      }
    });
  }

  /**
   * Replaces the given fields of a reachable resource; the owner cannot change (400 with `message`).
   * A revision claim keeps concurrent partial updates from overwriting each other's fields.
   */
  async update(
    actor: Actor,
    id: number,
    organizationId: number | undefined,
    set: Partial<D>,
    message: string,
  ): Promise<D> {
    const current = await this.reachable(actor, id, organizationId, 'write');
    if (set.ownerID !== undefined && set.ownerID !== current.ownerID) {
      throw badRequest('invalid_body', message, [{ in: 'body', path: 'ownerID', problem: 'cannot be changed' }]);
    }
    const doc = await this.changing(current.ownerID, (inTime) =>
      this.db.revisions.change(
        this.model,
        current._id,
        () => {
          inTime();
          return set;
        },
        current,
      ),
    );
    if (!doc) throw notFound(`${this.title} not found`);
    return doc;
  }

  /** Deletes a reachable resource. */
  async remove(actor: Actor, id: number, organizationId: number | undefined): Promise<D> {
    const doc = await this.reachable(actor, id, organizationId, 'write');
    await this.changing(doc.ownerID, async (inTime) => {
      inTime();
      await this.model.deleteOne({ _id: doc._id });
      await this.byOwner.remove(doc.ownerID, doc._id);
    });
    return doc;
  }

  /** The owner's resources, without access checks (any-active, alarm delivery): exact lookups only. */
  async ofOwner(ownerId: number): Promise<D[]> {
    // An ID whose create failed after it was indexed has no document: it is no resource.
    const docs = await this.byOwner.load(ownerId, (id) => this.model.findById(id).lean() as Promise<D | null>);
    return docs.sort((a, b) => Number(a._id) - Number(b._id));
  }

  /** The owner's resources an alarm (or A7) of the organization may use: his own and its own. */
  async usableBy(ownerId: number, organizationId: number): Promise<D[]> {
    return (await this.ofOwner(ownerId)).filter((doc) => usableIn(doc, organizationId));
  }

  // Stored before resources recorded who entered them (no organizationID at all): the organization of an
  // owner who belongs to no other still manages it, as it did (many keep their members' numbers).
  private async legacyOf(doc: D, organizationId: number): Promise<boolean> {
    if (doc.organizationID !== undefined) return false;
    const memberships = (await membershipsOf(this.db, [doc.ownerID])).get(doc.ownerID);
    return memberships?.size === 1 && memberships.has(organizationId);
  }

  private get title(): string {
    return this.noun[0].toUpperCase() + this.noun.slice(1);
  }
}
