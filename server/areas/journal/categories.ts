// Journal categories (J1–J5): load, authorize, write. A category used by an entry cannot be deleted;
// whether it is used or deleted is decided by one claim document per category ("used" by the first
// entry, "deleted" by J5), whose insert both engines decide atomically: whichever comes first wins,
// so no entry can take a category that is being deleted and no used category can be deleted.
import type { CategoryInput, CategoryView } from '../../../schemas/journal.js';
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import { isDuplicateKey } from '../../db/errors.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import { journalModels, type CategoryDoc, type CategoryMarkDoc } from './models.js';
import { presentCategory } from './presenter.js';
import { Recent } from '../../db/recent.js';
import { wording } from './wording.js';

/** The journal categories of organizations. */
export class CategoryCommands {
  private readonly marks: Recent<number, CategoryMarkDoc['state']>;

  // An organization's categories, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly byOrganization: IdIndex;

  constructor(private readonly db: Database) {
    this.marks = new Recent(10_000, db.generation);
    const { JournalCategory, JournalCategoryIndex } = journalModels(db);
    this.byOrganization = new IdIndex(JournalCategoryIndex, db.system.Lock, 'categories', async (organizationId) =>
      (await JournalCategory.find({ organizationId: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
  }

  /** J1: the organization's categories in ID order. */
  async list(actor: Actor, organizationId: number): Promise<CategoryView[]> {
    if (!canRead(actor, organizationId)) throw forbidden(wording.unauthorizedUser);
    const { JournalCategory } = journalModels(this.db);
    const docs = await this.byOrganization.load(organizationId, (id) => JournalCategory.findById(id).lean());
    return docs
      .filter((d) => d.organizationId === organizationId)
      .map(presentCategory)
      .sort((a, b) => a.id - b.id);
  }

  /** J2: a new category of an organization the actor configures. */
  async create(actor: Actor, input: CategoryInput): Promise<CategoryView> {
    if (!canConfigure(actor, input.organizationId)) throw forbidden(wording.unauthorizedUser);
    const id = await this.db.ids.next('journalCategory');
    const now = new Date();
    await this.byOrganization.add(input.organizationId, String(id));
    const doc = await journalModels(this.db).JournalCategory.create({
      _id: String(id),
      organizationId: input.organizationId,
      name: input.name,
      description: input.description,
      createdAt: now,
      updatedAt: now,
    });
    return presentCategory(doc.toObject());
  }

  /** J3: a category the actor may read; another organization's is not found. */
  async get(actor: Actor, id: number): Promise<CategoryView> {
    return presentCategory(await this.readable(actor, id));
  }

  /** J4: replaces name and description; a category stays in its organization. */
  async update(actor: Actor, id: number, input: CategoryInput): Promise<CategoryView> {
    const current = await this.writable(actor, id);
    const wrong =
      input.organizationId !== current.organizationId ? 'organizationId' : input.id && input.id !== id ? 'id' : null;
    if (wrong)
      throw badRequest('invalid_body', wording.category, [
        { in: 'body', path: wrong, problem: "must be the category's own" },
      ]);
    const doc = await journalModels(this.db)
      .JournalCategory.findOneAndUpdate(
        { _id: String(id) },
        { $set: { name: input.name, description: input.description, updatedAt: new Date() } },
        { returnDocument: 'after' },
      )
      .lean();
    if (!doc) throw notFound(wording.categoryNotFound);
    return presentCategory(doc);
  }

  /** J5: deletes a category no entry uses (409 category_in_use otherwise). */
  async remove(actor: Actor, id: number): Promise<{ status: 'deleted' }> {
    const current = await this.writable(actor, id);
    const mark = await this.claim(id, 'deleted');
    // A "deleted" mark that was already there is an interrupted delete: finish it.
    if (mark === 'used') throw conflict('category_in_use', wording.categoryInUse);
    await journalModels(this.db).JournalCategory.deleteOne({ _id: String(id) });
    await this.byOrganization.remove(current.organizationId, String(id));
    return { status: 'deleted' };
  }

  /**
   * The category an entry of the organization is about to use, marked as used from now on; 400 when
   * it is not one of the organization's categories (or is being deleted).
   */
  async use(organizationId: number, id: number): Promise<CategoryView> {
    const doc = await journalModels(this.db).JournalCategory.findById(String(id)).lean();
    const missing = () =>
      badRequest('invalid_body', wording.category, [
        { in: 'body', path: 'categoryId', problem: "is not a category of the journal's organization" },
      ]);
    if (!doc || doc.organizationId !== organizationId) throw missing();
    if ((await this.claim(id, 'used')) === 'deleted') throw missing();
    return presentCategory(doc);
  }

  // The category's mark after trying to set it to `state`: the first mark ever set stays, so a mark
  // seen once is remembered.
  private async claim(id: number, state: CategoryMarkDoc['state']): Promise<CategoryMarkDoc['state']> {
    const known = this.marks.get(id);
    if (known) return known;
    const mark = await this.setMark(id, state);
    this.marks.set(id, mark);
    return mark;
  }

  private async setMark(id: number, state: CategoryMarkDoc['state']): Promise<CategoryMarkDoc['state']> {
    const { JournalCategoryMark } = journalModels(this.db);
    const existing = await JournalCategoryMark.findById(String(id)).lean();
    if (existing) return existing.state;
    try {
      await JournalCategoryMark.create({ _id: String(id), state });
      return state;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return (await JournalCategoryMark.findById(String(id)).lean())!.state;
    }
  }

  private async readable(actor: Actor, id: number): Promise<CategoryDoc> {
    const doc = await journalModels(this.db).JournalCategory.findById(String(id)).lean();
    if (!doc || !canRead(actor, doc.organizationId)) throw notFound(wording.categoryNotFound);
    return doc;
  }

  private async writable(actor: Actor, id: number): Promise<CategoryDoc> {
    const doc = await this.readable(actor, id);
    if (!canConfigure(actor, doc.organizationId)) throw forbidden(wording.unauthorizedUser);
    return doc;
  }
}
