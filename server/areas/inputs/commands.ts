// Alarm inputs (IP1–IP3; docs/inputs.md): load, authorize, write. Members read an organization's inputs;
// its admins and API key write them. An IMAP password is encrypted at rest for its input and field and
// never answered; a pager input's codes are indexed so that IN3 finds them by exact lookups.
import { MASK, type IP1Input, type InputView, type PagerSettingsInput } from '../../../schemas/inputs.js';
import { withClaimLock } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import { badRequest, conflict, forbidden, notFound, type ErrorDetail } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { Keyring } from '../els-cobra/secrets.js';
import { inputModels, type InputDoc, type InputModels } from './models.js';
import { profileProblems } from './profile.js';
import { forgetStatus, statusOf, type InputStatus } from './status.js';

const NOT_FOUND = 'Input not found';
const WRITERS = "Inputs are written by organization admins and the organization's API key";
const INVALID = 'Input in wrong format or required field missing';

/** The key a pager code is indexed under (IN3 looks it up). */
export function pagerKey(code: { ric?: string; subric?: string; zvei?: string; fms?: string }): string {
  if (code.zvei) return `zvei:${code.zvei}`;
  if (code.fms) return `fms:${code.fms.toUpperCase()}`;
  return `ric:${Number(code.ric)}`;
}

/** Every key a pager input's settings are found under. */
export function pagerKeys(settings: PagerSettingsInput | Record<string, unknown>): string[] {
  const s = settings as PagerSettingsInput;
  return [
    ...new Set([
      ...(s.codes ?? []).map((c) => pagerKey(c)),
      ...(s.vehicles ?? []).map((v) => pagerKey({ fms: v.fms })),
    ]),
  ];
}

/** The alarm inputs of organizations. */
export class InputCommands {
  readonly models: InputModels;
  readonly byOrganization: IdIndex;
  /** Pager codes ("ric:1234567", "zvei:12345", "fms:…") to the inputs that know them. */
  readonly byCode: IdIndex;
  /** Every imap input of the installation, under "all": what the watchers watch. */
  readonly imapInputs: IdIndex;

  constructor(
    private readonly db: Database,
    private readonly keyring: () => Keyring,
    /** The ports an imap input may name (INPUT_IMAP_PORTS). */
    private readonly imapPorts: readonly number[],
    /** Told after an input was deleted (its documents go). */
    private readonly removed?: (doc: InputDoc) => Promise<void>,
  ) {
    this.models = inputModels(db);
    const { Input, InputIndex } = this.models;
    this.byOrganization = new IdIndex(InputIndex, db.system.Lock, 'inputs', async (organizationId) =>
      (await Input.find({ organizationId: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
    // Every pager input indexed its codes when it was made: nothing to scan for. Outsiders name codes
    // (IN3: every telegram the decoder hears), so one that no input knows is never stored.
    this.byCode = new IdIndex(InputIndex, db.system.Lock, 'pager-codes', async () => [], false);
    // Read by every process's watchers every few seconds: before the first imap input, nothing is stored.
    this.imapInputs = new IdIndex(InputIndex, db.system.Lock, 'imap-inputs', async () => [], false);
  }

  /** IP2: the organization's inputs in ID order. */
  async list(actor: Actor, organizationId: number): Promise<InputView[]> {
    if (!canRead(actor, organizationId)) throw forbidden('Not allowed in this organization');
    const docs = await this.byOrganization.load(organizationId, (id) => this.models.Input.findById(id).lean());
    const own = docs.filter((d) => d.organizationId === organizationId);
    const status = await Promise.all(own.map((d) => statusOf(this.models, d)));
    return own.map((d, i) => presentInput(d, status[i]!)).sort((a, b) => a.id - b.id);
  }

  /** IP1: a new input of an organization the actor configures. */
  async create(actor: Actor, input: IP1Input): Promise<InputView> {
    if (!canConfigure(actor, input.organizationID)) throw forbidden(WRITERS);
    const password = (input.settings as { password?: string }).password;
    if (input.kind === 'imap' && (password === undefined || password === MASK))
      throw invalid([{ in: 'body', path: 'settings.password', problem: 'is required for a new imap input' }]);
    if (input.kind === 'imap') checkServer(input, this.imapPorts);
    checkProfile(input);
    await this.checkCodes(input.organizationID, input);
    if (input.kind === 'imap') await this.checkImapCount(input.organizationID);
    const id = String(await this.db.ids.next('input'));
    await this.byOrganization.add(input.organizationID, id);
    const doc: InputDoc = {
      _id: id,
      organizationId: input.organizationID,
      ...this.fieldsOf(id, input, null),
    };
    for (const key of input.kind === 'pager' ? pagerKeys(input.settings) : []) await this.byCode.add(key, id);
    if (input.kind === 'imap') await this.imapInputs.add('all', id);
    await this.models.Input.create(doc);
    return presentInput(doc, { lastReceivedAt: null, lastError: null });
  }

  /** IP3 GET: an input the actor may read; another organization's is not found. */
  async get(actor: Actor, id: number): Promise<InputView> {
    const doc = await this.readable(actor, id);
    return presentInput(doc, await statusOf(this.models, doc));
  }

  /** IP3 PUT: replaces an input; its organization and kind stay. Absent or masked, the password stays. */
  async update(actor: Actor, id: number, input: IP1Input): Promise<InputView> {
    await this.writable(actor, id);
    // One change of an input at a time, read afresh: two at once leave the pager codes' index as the
    // input that was stored last names them.
    return withClaimLock(this.db.system.Lock, `input:${id}`, () => this.replace(actor, id, input));
  }

  private async replace(actor: Actor, id: number, input: IP1Input): Promise<InputView> {
    const current = await this.writable(actor, id);
    const problems: ErrorDetail[] = [];
    if (input.organizationID !== current.organizationId)
      problems.push({ in: 'body', path: 'organizationID', problem: "cannot be changed (must be the input's own)" });
    if (input.kind !== current.kind)
      problems.push({ in: 'body', path: 'kind', problem: `cannot be changed (must be "${current.kind}")` });
    if (current.kind === 'imap') problems.push(...keptPasswordProblems(current, input));
    if (current.kind === 'imap' && input.kind === 'imap' && !problems.length) checkServer(input, this.imapPorts);
    if (problems.length) throw invalid(problems);
    checkProfile(input);
    await this.checkCodes(current.organizationId, input, current._id);
    const fields = this.fieldsOf(current._id, input, current.secret);
    const before = current.kind === 'pager' ? pagerKeys(current.settings) : [];
    const after = current.kind === 'pager' ? pagerKeys(fields.settings) : [];
    for (const key of after.filter((k) => !before.includes(k))) await this.byCode.add(key, current._id);
    const doc = await this.models.Input.findOneAndUpdate(
      { _id: current._id },
      { $set: fields },
      { returnDocument: 'after' },
    ).lean();
    for (const key of before.filter((k) => !after.includes(k))) await this.byCode.remove(key, current._id);
    if (!doc) throw notFound(NOT_FOUND);
    return presentInput(doc, await statusOf(this.models, doc));
  }

  /** IP3 DELETE: removes an input; the alarms it raised stay, its documents go. */
  async remove(actor: Actor, id: number): Promise<{ status: 'deleted' }> {
    await this.writable(actor, id);
    return withClaimLock(this.db.system.Lock, `input:${id}`, () => this.delete(actor, id));
  }

  private async delete(actor: Actor, id: number): Promise<{ status: 'deleted' }> {
    const current = await this.writable(actor, id);
    await this.models.Input.deleteOne({ _id: current._id });
    await forgetStatus(this.models, current._id);
    await this.byOrganization.remove(current.organizationId, current._id);
    for (const key of current.kind === 'pager' ? pagerKeys(current.settings) : [])
      await this.byCode.remove(key, current._id);
    if (current.kind === 'imap') await this.imapInputs.remove('all', current._id);
    await this.removed?.(current);
    return { status: 'deleted' };
  }

  // A pager code belongs to one organization of the installation: another's telegrams are not its own.
  private async checkCodes(organizationId: number, input: IP1Input, own?: string): Promise<void> {
    if (input.kind !== 'pager') return;
    for (const key of pagerKeys(input.settings)) {
      const ids = (await this.byCode.ids(key)).filter((id) => id !== own);
      const docs = await Promise.all(ids.map((id) => this.models.Input.findById(id, { organizationId: 1 }).lean()));
      if (docs.some((d) => d && d.organizationId !== organizationId))
        throw conflict(
          'pager_code_taken',
          `The pager code ${key.replace(':', ' ')} belongs to another organization of this installation`,
        );
    }
  }

  private async checkImapCount(organizationId: number): Promise<void> {
    const ids = await this.byOrganization.ids(organizationId);
    const docs = await Promise.all(ids.map((id) => this.models.Input.findById(id, { kind: 1 }).lean()));
    if (docs.filter((d) => d?.kind === 'imap').length >= MAX_IMAP_INPUTS)
      throw conflict('limit_reached', `An organization has at most ${MAX_IMAP_INPUTS} e-mail inputs`);
  }

  /** An input the actor may read. */
  async readable(actor: Actor, id: number): Promise<InputDoc> {
    const doc = await this.models.Input.findById(String(id)).lean();
    if (!doc || !canRead(actor, doc.organizationId)) throw notFound(NOT_FOUND);
    return doc;
  }

  /** An input the actor may write. */
  async writable(actor: Actor, id: number): Promise<InputDoc> {
    const doc = await this.readable(actor, id);
    if (!canConfigure(actor, doc.organizationId)) throw forbidden(WRITERS);
    return doc;
  }

  /** The IMAP password of an input. */
  password(doc: InputDoc): string {
    return doc.secret ? this.keyring().decrypt(doc.secret, secretContext(doc._id)) : '';
  }

  private fieldsOf(id: string, input: IP1Input, secret: InputDoc['secret']) {
    const { password, ...settings } = input.settings as Record<string, unknown> & { password?: string };
    const kept = password === undefined || password === MASK;
    return {
      name: input.name,
      kind: input.kind,
      settings: input.kind === 'imap' ? withImapDefaults(settings) : settings,
      secret: input.kind !== 'imap' ? null : kept ? secret : this.keyring().encrypt(password, secretContext(id)),
      profile: input.kind === 'pager' ? null : (input.profile ?? null),
      monitorIds: input.monitorIds ?? null,
      channels: input.channels ?? null,
      active: input.active,
      updatedAt: new Date(),
    };
  }
}

const secretContext = (id: string) => `input:${id}:password`;

// An imap server at a port the operator allows, and not a link-local address (a cloud's metadata service).
function checkServer(input: IP1Input, ports: readonly number[]): void {
  const s = withImapDefaults(input.settings as Record<string, unknown>);
  const problems: ErrorDetail[] = [];
  if (!ports.includes(Number(s.port)))
    problems.push({
      in: 'body',
      path: 'settings.port',
      problem: `must be one of ${ports.join(', ')} (INPUT_IMAP_PORTS)`,
    });
  if (linkLocal(String(s.host)))
    problems.push({ in: 'body', path: 'settings.host', problem: 'must not be a link-local address' });
  if (problems.length) throw invalid(problems);
}

/** 169.254.0.0/16, fe80::/10 and 0.0.0.0: never a mail server. */
export function linkLocal(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  return /^169\.254\./.test(a) || /^fe[89ab][0-9a-f]:/.test(a) || a === '0.0.0.0' || a === '::';
}

/** E-mail inputs per organization: each is a connection from every process. */
export const MAX_IMAP_INPUTS = 5;

// The stored password goes to the server it was given for only: a new host, port, user or TLS setting
// needs it again (else an admin could send it to a server of his own).
function keptPasswordProblems(current: InputDoc, input: IP1Input): ErrorDetail[] {
  const next = withImapDefaults(input.settings as Record<string, unknown>);
  const password = (input.settings as { password?: string }).password;
  if (password !== undefined && password !== MASK) return [];
  const moved = (['host', 'port', 'user', 'tls'] as const).filter((k) => next[k] !== current.settings[k]);
  return moved.length
    ? [
        {
          in: 'body',
          path: 'settings.password',
          problem: `is required again when the ${moved.join(', ')} ${moved.length === 1 ? 'changes' : 'change'}`,
        },
      ]
    : [];
}

function withImapDefaults(settings: Record<string, unknown>): Record<string, unknown> {
  const tls = settings.tls !== false;
  return { ...settings, tls, port: settings.port ?? (tls ? 993 : 143), folder: settings.folder ?? 'INBOX' };
}

function invalid(details: ErrorDetail[]) {
  return badRequest('invalid_body', INVALID, details);
}

function checkProfile(input: IP1Input): void {
  if (input.kind === 'pager') return;
  if (!input.profile)
    throw invalid([{ in: 'body', path: 'profile', problem: `is required for a ${input.kind} input` }]);
  const problems = profileProblems(input.profile);
  if (problems.length) throw invalid(problems);
}

/** An input as IP1–IP3 answer it: the password masked. */
export function presentInput(doc: InputDoc, status: InputStatus): InputView {
  return {
    id: Number(doc._id),
    organizationId: doc.organizationId,
    name: doc.name,
    kind: doc.kind,
    settings: doc.kind === 'imap' ? { ...doc.settings, password: MASK } : doc.settings,
    profile: doc.profile,
    monitorIds: doc.monitorIds,
    channels: doc.channels,
    active: doc.active,
    lastReceivedAt: status.lastReceivedAt?.toISOString() ?? null,
    lastError: status.lastError,
  };
}
