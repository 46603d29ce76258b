// Backing up and restoring an installation through the database connection itself: every collection
// as Extended JSON lines (types such as dates survive), plus a manifest. It works the same on MongoDB
// and on the embedded FerretDB, needs no tools besides the service, and runs while the service does.
// (On MongoDB, mongodump/mongorestore do the same job; see docs/operating.md, "Backups".)
import fs from 'node:fs/promises';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import mongoose from 'mongoose';
import { buildIndexes, type Database } from '../db/database.js';
import { ID_COLLECTIONS, mergeRestored } from '../db/ids.js';
import { markRestored } from '../db/restores.js';
import { credentialsChanged } from '../identity/credential-changes.js';

const { EJSON } = mongoose.mongo.BSON;
const MANIFEST = 'manifest.json';
const BATCH = 200;
// State of the running processes, not data: the processes of this database (each keeps its own entry)
// and revisions being written right now (a restored claim would make the next writer wait for its lease).
const RUNTIME = new Set(['hub_processes', 'revision_claims']);
// Keys of this database of its own, kept out of backups (a copy restored elsewhere makes its own): the
// answer links' (server/areas/alarms/answer-links.ts). A restore leaves them as they are, so the links
// of the alarms under way still answer.
const OWN_KEYS = new Set(['alarm_link_keys']);
const notData = (name: string) => RUNTIME.has(name) || OWN_KEYS.has(name);
// Derived from other collections and rebuilt from them on first use (the things records' position
// index, docs/storage.md "Records near a point"; the journal export's chunks; the copies of members'
// targets, docs/storage.md "A member's targets in one document"): not saved, and emptied by a restore, so
// a backup taken while records moved can never restore an index that misses one.
const DERIVED = new Set(['things_position_index', 'journal_chunks', 'owner_targets']);
const isIdCollection = (name: string): name is (typeof ID_COLLECTIONS)[number] =>
  (ID_COLLECTIONS as readonly string[]).includes(name);

interface Manifest {
  format: 'alarm-hub-backup/1';
  createdAt: string;
  installationId: string | null;
  collections: Record<string, number>;
}

/** Writes every collection of the database to `dir` (created; must be empty or new). */
export async function backup(
  db: Database,
  dir: string,
): Promise<{ dir: string; collections: number; documents: number }> {
  // Private like the database it copies: the folder 0700, its files 0600.
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if ((await fs.readdir(dir)).length > 0) throw new Error(`${dir} is not empty`);
  await fs.chmod(dir, 0o700);
  const native = db.conn.db!;
  const names = (await native.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !notData(name) && !DERIVED.has(name))
    .sort();
  const manifest: Manifest = {
    format: 'alarm-hub-backup/1',
    createdAt: new Date().toISOString(),
    installationId: null,
    collections: {},
  };
  for (const name of names) {
    const file = await fs.open(path.join(dir, `${name}.ejson`), 'w', 0o600);
    let count = 0;
    for await (const doc of native.collection(name).find({})) {
      await file.write(`${EJSON.stringify(doc, { relaxed: false })}\n`);
      count++;
    }
    await file.close();
    manifest.collections[name] = count;
  }
  const installation = await db.system.Installation.findById('installation').lean();
  manifest.installationId = installation?.installationId ?? null;
  await fs.writeFile(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2), { mode: 0o600 });
  return { dir, collections: names.length, documents: Object.values(manifest.collections).reduce((a, b) => a + b, 0) };
}

/**
 * Loads a backup into the database. Without `replace` the database must hold no data yet (a new
 * installation); with it, every collection of the backup replaces the one in the database — except
 * the ID sequences, which are merged so that no ID is ever issued twice, and the running processes'
 * state, which stays. The restore mark written last tells running processes to drop what they cached.
 */
export async function restore(
  db: Database,
  dir: string,
  replace: boolean,
): Promise<{ collections: number; documents: number }> {
  const manifest = JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== 'alarm-hub-backup/1') throw new Error(`${dir} holds no alarm-hub backup`);
  const native = db.conn.db!;
  if (!replace) {
    for (const name of ['organizations', 'users', 'monitors']) {
      if (await native.collection(name).findOne({}))
        throw new Error('the database already holds data: restore into a new one, or pass --replace');
    }
  }
  let documents = 0;
  const names = Object.keys(manifest.collections).filter((name) => !notData(name));
  // The database becomes the backup: a collection the backup does not hold is emptied too (an
  // organization's record collection made after the backup, an index the backup's version kept none
  // of, which is then built again from the restored documents).
  for (const { name } of await native.listCollections({}, { nameOnly: true }).toArray()) {
    if (!notData(name) && !isIdCollection(name) && !(name in manifest.collections))
      await native.collection(name).deleteMany({});
  }
  for (const name of names) {
    const merge = isIdCollection(name);
    if (!merge) await native.collection(name).deleteMany({});
    const load = (docs: object[]) =>
      merge ? mergeRestored(native, name, docs as never[]) : native.collection(name).insertMany(docs as never[]);
    let batch: object[] = [];
    const lines = createInterface({ input: createReadStream(path.join(dir, `${name}.ejson`)) });
    for await (const line of lines) {
      if (!line) continue;
      batch.push(EJSON.parse(line, { relaxed: false }) as object);
      if (batch.length === BATCH) {
        await load(batch);
        documents += batch.length;
        batch = [];
      }
    }
    if (batch.length) await load(batch);
    documents += batch.length;
  }
  // Indexes of the service's models (a replaced collection keeps its own; new ones get them here).
  await buildIndexes(db.conn);
  // Derived data again: a process that has not heard of the restore yet may have written some of the
  // old history while the backup loaded.
  for (const name of DERIVED) await native.collection(name).deleteMany({});
  // The restored credential change mark may be one the hub's sockets were checked under, while tokens
  // made since the backup are gone: a new mark has every socket checked again (server/hub/recheck.ts).
  // The restore mark is written even when that fails: the processes must drop what they cached.
  try {
    await credentialsChanged(db);
  } finally {
    await markRestored(native);
  }
  return { collections: names.length, documents };
}
