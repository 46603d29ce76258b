// A collection per organization (docs/storage.md "Partitioned by organization"): on the embedded engine
// every filter but an exact _id lookup reads the whole collection, so a collection that an organization's
// lists and counts filter is split by organization, and such a query reads only that organization's
// documents — on MongoDB too, where it keeps one organization's size out of another's indexes.
import type { Connection, Model, Schema } from 'mongoose';

/** The models of one schema, one collection per organization: `<prefix><organization ID>`. */
export interface Partitions<T> {
  /** The organization's model, its indexes built (once per process) before it is handed out. */
  of(organizationId: number): Promise<Model<T>>;
  /** The collection name of an organization's partition. */
  collectionOf(organizationId: number): string;
}

/** Declares the partitions of `schema`; models are registered on first use of each organization. */
export function partitioned<T>(conn: Connection, modelName: string, schema: Schema<T>, prefix: string): Partitions<T> {
  const models = new Map<number, Promise<Model<T>>>();
  const collectionOf = (organizationId: number) => `${prefix}${organizationId}`;
  return {
    collectionOf,
    of(organizationId) {
      if (!Number.isSafeInteger(organizationId) || organizationId < 1)
        throw new Error(`partition of ${modelName}: bad organization ID ${organizationId}`);
      let model = models.get(organizationId);
      if (!model) {
        const name = `${modelName}:${organizationId}`;
        const registered = conn.models[name] as Model<T> | undefined;
        const created = registered ?? conn.model<T>(name, schema, collectionOf(organizationId));
        // Mongoose swallows a failed index build: wait for it, so that a unique index holds from the
        // first insert; a failure is retried by the next caller.
        model = created
          .init()
          .then(() => created.createIndexes())
          .then(() => created);
        model.catch(() => models.delete(organizationId));
        models.set(organizationId, model);
      }
      return model;
    },
  };
}
