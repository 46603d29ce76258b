// An area's collections are its own (docs/storage.md "Who owns which collection"): the area declares
// them with defineModels in its models.ts and reads them through the set it declared; another area
// asks the owner's functions. The database opens with every area's set (server/areas/index.ts) so that
// the indexes exist before the first request, and knows no area by name.
import type { Connection } from 'mongoose';

/** What a model set is built on: the open database, or anything else holding its connection. */
export interface Connected {
  conn: Connection;
}

/** An area's models on a connection: registered on the first call for that connection, then the same. */
export type ModelSet<T = object> = (db: Connected) => T;

/** Declares a model set; `build` registers the models and runs once per connection. */
export function defineModels<T extends object>(build: (conn: Connection) => T): ModelSet<T> {
  const built = new WeakMap<Connection, T>();
  return ({ conn }) => {
    let models = built.get(conn);
    if (!models) {
      models = build(conn);
      built.set(conn, models);
    }
    return models;
  };
}
