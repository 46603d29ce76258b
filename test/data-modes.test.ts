// Data at rest is the service user's alone (docs/operating.md, "Backups"): the embedded database's directory
// and files, the files it writes later, and backups carry no permission for group or others.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { backup } from '../server/admin/backup.js';
import { openDatabase } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';

const modes = suite('data at rest: modes of the database files and backups');

/** Every path under `root` (itself included) whose mode lets group or others in. */
async function opened(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (at: string) => {
    const stat = await fs.stat(at);
    if (stat.mode & 0o077) found.push(`${path.relative(root, at) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of await fs.readdir(at)) await visit(path.join(at, name));
  };
  await visit(root);
  return found;
}

modes(
  'a fresh embedded database and a backup of it are 0700 directories of 0600 files, with the usual umask 022',
  async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-modes-'));
    const previous = process.umask(0o022);
    const dataDir = path.join(tmp, 'data');
    const launched = await launchDatabase({ dataDir, say: () => {} });
    try {
      const db = await openDatabase(`${launched.uri.replace(/\/$/, '')}/modes`, serviceModels);
      try {
        // Data written after the start lands in files the database creates now.
        const identity = new IdentityCommands(db);
        const org = await identity.createOrganization('Modes');
        await identity.createApiKey(org.id, 'station');
        const target = path.join(tmp, 'backups', 'today');
        await backup(db, target);
        assert.equal(await opened(dataDir), [], 'the data directory');
        assert.equal(await opened(target), [], 'the backup');
        assert.ok((await fs.readdir(target)).length > 3, 'the backup holds files');
      } finally {
        await db.close();
      }
    } finally {
      await launched.stop();
      process.umask(previous);
      await fs.rm(tmp, { recursive: true, force: true });
    }
  },
);

modes.run();
