// The integration's commands: load, authorize, write. Each resource is one document per organization
// (credentials: per organization and service); secret fields are encrypted before they are stored and
// decrypted only for the organization's API key and admins.
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import { isDuplicateKey } from '../../db/errors.js';
import { forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead, canReadIntegrationSecrets } from '../../identity/policy.js';
import { elsCobraModels, type IntegrationDoc } from './models.js';
import type { Keyring } from './secrets.js';

export type Kind = 'certificate' | 'credentials' | 'keywords' | 'login';

/** Which resource of which organization (and service, for credentials). */
export interface Address {
  kind: Kind;
  organizationId: number;
  serviceName?: string;
}

export type Fields = Record<string, unknown>;

const RESOURCES: Record<Kind, { noun: string; secrets: readonly string[] }> = {
  certificate: { noun: 'Certificate', secrets: ['privateKey'] },
  credentials: { noun: 'Credentials', secrets: ['password'] },
  keywords: { noun: 'Keyword list', secrets: [] },
  login: { noun: 'Login', secrets: [] },
};

/** The integration commands over one database and keyring. */
export class ElsCobraCommands {
  // An organization's credentials, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly credentials: IdIndex;

  constructor(
    private readonly db: Database,
    private readonly keyring: () => Keyring,
  ) {
    const { ElsCobraCredential, ElsCobraCredentialIndex } = elsCobraModels(db);
    this.credentials = new IdIndex(ElsCobraCredentialIndex, db.system.Lock, 'credentials', async (organizationId) =>
      (await ElsCobraCredential.find({ organizationId: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
  }

  /** E1, E3 (one service), E5, GET login: the stored resource, secrets decrypted. */
  async read(actor: Actor, at: Address): Promise<Fields> {
    this.authorizeRead(actor, at);
    const doc = await this.model(at).findById(this.id(at)).lean();
    if (!doc) throw notFound(`${RESOURCES[at.kind].noun} not found`);
    return this.present(at, doc);
  }

  /** E3 without serviceName: every service's credentials of the organization, by serviceName. */
  async list(actor: Actor, organizationId: number): Promise<Fields[]> {
    this.authorizeRead(actor, { kind: 'credentials', organizationId });
    const { ElsCobraCredential } = elsCobraModels(this.db);
    const docs = (await this.credentials.load(organizationId, (id) => ElsCobraCredential.findById(id).lean())).filter(
      (d) => d.organizationId === organizationId,
    );
    const views = docs.map((doc) =>
      this.present(
        { kind: 'credentials', organizationId, serviceName: doc._id.slice(`${organizationId}:`.length) },
        doc,
      ),
    );
    return views.sort((a, b) => String(a.serviceName).localeCompare(String(b.serviceName)));
  }

  /** E2, E4, E6, E7: replaces the resource with `fields` (already validated); the last write wins. */
  async write(actor: Actor, at: Address, fields: Fields): Promise<Fields> {
    this.authorizeWrite(actor, at.organizationId);
    const { secrets } = RESOURCES[at.kind];
    const open: Fields = {};
    const sealed: IntegrationDoc['secrets'] = {};
    for (const [name, value] of Object.entries(fields)) {
      if (secrets.includes(name)) sealed[name] = this.keyring().encrypt(String(value), this.context(at, name));
      else open[name] = value;
    }
    const doc = {
      _id: this.id(at),
      organizationId: at.organizationId,
      data: JSON.stringify(open),
      secrets: sealed,
      updatedAt: new Date(),
    };
    const model = this.model(at);
    if (at.kind === 'credentials') await this.credentials.add(at.organizationId, doc._id);
    try {
      await model.replaceOne({ _id: doc._id }, doc, { upsert: true });
    } catch (err) {
      // Two first writes raced to insert it; the other one exists now, so this one replaces it.
      if (!isDuplicateKey(err)) throw err;
      await model.replaceOne({ _id: doc._id }, doc);
    }
    return { organizationId: at.organizationId, ...fields };
  }

  /** The DELETE of each resource. */
  async remove(actor: Actor, at: Address): Promise<{ status: 'deleted' }> {
    this.authorizeWrite(actor, at.organizationId);
    const { deletedCount } = await this.model(at).deleteOne({ _id: this.id(at) });
    if (at.kind === 'credentials') await this.credentials.remove(at.organizationId, this.id(at));
    if (!deletedCount) throw notFound(`${RESOURCES[at.kind].noun} not found`);
    return { status: 'deleted' };
  }

  private authorizeRead(actor: Actor, at: Address): void {
    if (!canRead(actor, at.organizationId)) throw forbidden('Not allowed in this organization');
    if (RESOURCES[at.kind].secrets.length && !canReadIntegrationSecrets(actor, at.organizationId)) {
      throw forbidden("Reading integration secrets needs an organization admin or the organization's API key");
    }
  }

  private authorizeWrite(actor: Actor, organizationId: number): void {
    if (!canConfigure(actor, organizationId))
      throw forbidden("Changing the integration needs an organization admin or the organization's API key");
  }

  private present(at: Address, doc: IntegrationDoc): Fields {
    const secrets = Object.entries(doc.secrets ?? {}).map(([name, value]) => [
      name,
      this.keyring().decrypt(value, this.context(at, name)),
    ]);
    return { organizationId: doc.organizationId, ...(JSON.parse(doc.data) as Fields), ...Object.fromEntries(secrets) };
  }

  private model(at: Address) {
    return at.kind === 'credentials'
      ? elsCobraModels(this.db).ElsCobraCredential
      : elsCobraModels(this.db).ElsCobraSetting;
  }

  private id(at: Address): string {
    return at.kind === 'credentials' ? `${at.organizationId}:${at.serviceName}` : `${at.organizationId}:${at.kind}`;
  }

  // What a ciphertext is bound to: moved to another organization, resource or field, it fails to decrypt.
  private context(at: Address, field: string): string {
    return `els-cobra:${at.kind}:${this.id(at)}:${field}`;
  }
}
