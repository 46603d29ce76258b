// What the service keeps about itself: the installation's identity (created once, the namespace of
// its Redis channels), the hub processes running on this database with their hub configuration, and
// the claims of locks and revisions any area takes.
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { lockModel, type LockDoc } from './claim-lock.js';
import { madeOnce } from './made-once.js';
import { revisionClaimModel, type RevisionClaimDoc } from './revisions.js';

export interface InstallationDoc {
  _id: string;
  installationId: string;
  createdAt: Date;
}

export interface HubProcessDoc {
  _id: string;
  host: string;
  pid: number;
  /** How this process's hub reaches the others: Redis target and channel prefix, or none. */
  hub: string;
  startedAt: Date;
  seenAt: Date;
}

export interface SystemModels {
  Installation: Model<InstallationDoc>;
  HubProcess: Model<HubProcessDoc>;
  /** Claims of document revisions (server/db/revisions.ts). */
  RevisionClaim: Model<RevisionClaimDoc>;
  /** Claim locks that serialise a change across processes (server/db/claim-lock.ts). */
  Lock: Model<LockDoc>;
}

/** Registers the system models on a connection. */
export function systemModels(conn: Connection): SystemModels {
  return {
    Installation: conn.model<InstallationDoc>(
      'Installation',
      new Schema<InstallationDoc>(
        {
          _id: String,
          installationId: { type: String, required: true },
          createdAt: { type: Date, required: true },
        },
        { versionKey: false },
      ),
      'installation',
    ),
    HubProcess: conn.model<HubProcessDoc>(
      'HubProcess',
      new Schema<HubProcessDoc>(
        {
          _id: String,
          host: { type: String, required: true },
          pid: { type: Number, required: true },
          hub: { type: String, required: true },
          startedAt: { type: Date, required: true },
          seenAt: { type: Date, required: true },
        },
        { versionKey: false },
      ),
      'hub_processes',
    ),
    RevisionClaim: revisionClaimModel(conn),
    Lock: lockModel(conn),
  };
}

const INSTALLATION = 'installation';

/** The installation's identity: created by the first process that starts on this database, then kept. */
export async function installationId(models: SystemModels): Promise<string> {
  const made = await madeOnce(models.Installation, INSTALLATION, () => ({
    installationId: randomBytes(8).toString('hex'),
    createdAt: new Date(),
  }));
  if (!made) throw new Error("The installation's identity could not be read after it was made");
  return made.installationId;
}
