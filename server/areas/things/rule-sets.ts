// Where an entity's rules are kept: the entity's rule set (things_rule_sets, under the entity's _id)
// lists its rules in creation order, each as its ID and current version, at most
// THINGS_LIMITS.rulesPerEntity; each version is a document of things_entity_rules under
// "<ruleID>:<version>" that never changes (a save writes a new version). A record write reads the set
// by one exact _id lookup — the only query FerretDB answers from an index, so another organization's
// rules cost it nothing — and takes each rule from this process's cache, or else by its exact _id.
// The set changes only under a revision claim (server/db/revisions.ts): concurrent creates, saves and
// deletes on any number of processes are applied one after another, each on the list the previous one
// left, which is what holds the limit and makes the set the one truth about which version is current.
// A version is written before the set names it and deleted after the set stopped naming it; a crash
// in between leaves at most a version no set names, which nothing reads.
//
// Rules were once listed by a filter on entityID over things_rules (a scan of every organization's
// rules on FerretDB). Each process moves any left there when it starts.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ByteCache } from '../../db/byte-cache.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { thingsModels, type EntityDoc, type RuleDoc, type RuleRef } from './models.js';

const LEGACY = 'things_rules';
const CACHE_BYTES = 16 * 1024 * 1024;

/** A new version of a rule: its reference and the _id of its document. */
export function newVersion(ruleId: string): { ref: RuleRef; key: string } {
  const ref = { id: ruleId, v: randomBytes(9).toString('base64url') };
  return { ref, key: versionKey(ref) };
}

/** The _id of a rule version's document. */
export const versionKey = (ref: RuleRef) => `${ref.id}:${ref.v}`;

/** Reads and changes entities' rule sets. */
export class RuleSets {
  private migration: Promise<void> | null = null;
  private readonly cache: ByteCache<RuleDoc>;

  constructor(
    private readonly db: Database,
    log: Logger,
  ) {
    this.cache = new ByteCache(CACHE_BYTES, db.generation);
    // At start, so that record writes need not wait for it; a failure is tried again on the next use.
    this.migrated().catch((err: unknown) => log.error({ err }, 'things rules could not be moved into rule sets'));
  }

  /** The entity's rules as its set lists them, in creation order: one exact _id lookup. */
  async refs(entityId: string): Promise<RuleRef[]> {
    await this.migrated();
    return (await thingsModels(this.db).ThingRuleSet.findById(entityId).lean())?.rules ?? [];
  }

  /** The listed rules, in the order given: from the cache, else each by its exact _id. */
  async rules(refs: RuleRef[]): Promise<RuleDoc[]> {
    const docs = await Promise.all(
      refs.map(async (ref) => this.cache.get(versionKey(ref)) ?? this.fetch(versionKey(ref))),
    );
    return docs.filter((d): d is RuleDoc => d !== null);
  }

  /** The entity's rules in creation order. */
  async list(entityId: string): Promise<RuleDoc[]> {
    return this.rules(await this.refs(entityId));
  }

  /**
   * Replaces the entity's list with what `change` makes of the current one (it may throw to refuse, and
   * is called again when another writer changed the list first).
   */
  async change(
    entity: Pick<EntityDoc, '_id' | 'organizationID'>,
    change: (refs: RuleRef[]) => RuleRef[],
  ): Promise<void> {
    await this.migrated();
    const { ThingRuleSet } = thingsModels(this.db);
    const write = () =>
      this.db.revisions.change(ThingRuleSet, entity._id, (set) => ({
        rules: change(set.rules.map(({ id, v }) => ({ id, v }))),
      }));
    if (await write()) return;
    // The entity's first rule: the empty set comes first (of racing creators one insert wins).
    await insertIgnoringDuplicate(() =>
      ThingRuleSet.create({ _id: entity._id, organizationID: entity.organizationID, rules: [] }),
    );
    await write();
  }

  // A version never changes, so a copy kept here is good for as long as it is kept.
  private async fetch(key: string): Promise<RuleDoc | null> {
    const doc: RuleDoc | null = await thingsModels(this.db).ThingRule.findById(key).lean();
    if (doc) this.cache.set(key, doc, Buffer.byteLength(JSON.stringify(doc)));
    return doc;
  }

  private migrated(): Promise<void> {
    this.migration ??= migrateLegacy(this.db).catch((err: unknown) => {
      this.migration = null;
      throw err;
    });
    return this.migration;
  }
}

async function insertIgnoringDuplicate(insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

// Copies the old rule documents, lists them in their entities' sets and removes them. A set that
// exists already (another process moved it first) is left as it is.
async function migrateLegacy(db: Database): Promise<void> {
  const legacy = db.conn.collection<Omit<RuleDoc, 'ruleID'>>(LEGACY);
  const docs = await legacy.find({}).toArray();
  if (docs.length === 0) return;
  const byEntity = new Map<string, Array<Omit<RuleDoc, 'ruleID'>>>();
  for (const doc of docs) byEntity.set(doc.entityID, [...(byEntity.get(doc.entityID) ?? []), doc]);
  for (const [entityId, old] of byEntity) {
    old.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : 1));
    // Version "0": the same in every process that moves the rule.
    const refs = old.map((rule) => ({ id: rule._id, v: '0' }));
    for (const [k, rule] of old.entries())
      await insertIgnoringDuplicate(() =>
        thingsModels(db).ThingRule.create({ ...rule, _id: versionKey(refs[k]), ruleID: rule._id }),
      );
    await insertIgnoringDuplicate(() =>
      thingsModels(db).ThingRuleSet.create({ _id: entityId, organizationID: old[0].organizationID, rules: refs }),
    );
    await legacy.deleteMany({ _id: { $in: refs.map((r) => r.id) } });
  }
}
