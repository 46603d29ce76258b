// E-mail inputs (docs/inputs.md "E-mail"): each process watches every active imap input's folder with
// ImapFlow — IDLE where the server has it (a new message arrives as `exists`), and a look every
// INPUT_IMAP_POLL_MS besides. A new message is claimed by a unique insert of "<inputId>:<uidvalidity>:<uid>"
// before it is read, so of the processes watching one mailbox exactly one handles it, once, across
// restarts; a claim whose process died is taken over when it runs out. A message from an allowed sender
// goes to the intake as an e-mail (its text part, else its PDF or image) and is marked \Seen; others are
// noted as ignored. A message that was already in the folder long before it was first seen (a mailbox
// full of old mail, switched on as an input) raises nothing. Wrong credentials and unreachable servers
// show in the input's lastError; the watcher tries again, later each time.
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { ImapSettingsInput } from '../../../schemas/inputs.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { linkLocal, type InputCommands } from './commands.js';
import type { InputIntake } from './intake.js';
import type { InputDoc } from './models.js';

/** A message older than this when first seen raises nothing. */
export const TOO_OLD_MS = 10 * 60_000;
/**
 * How long a claim holds while its message is handled: longer than the worst a document can take (a
 * scanned PDF: pdftotext, pdftoppm and 5 pages of OCR at 30 s each) and its wait for a conversion slot.
 */
const CLAIM_MS = 10 * 60_000;
/** The largest message read. */
const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
const BACKOFF_MS = [1_000, 5_000, 15_000, 30_000, 60_000];
/** A connection that lasted this long was a good one. */
const STABLE_MS = 60_000;
/** How long stopping waits for the message in hand. */
const STOP_WAIT_MS = 30_000;
/**
 * What one IMAP answer may hold (ImapFlow's defaults allow a gigabyte): a message's source (the largest
 * read) and a little more; a server sending more is cut off, not buffered.
 */
const LIMITS = {
  maxLiteralSize: 21 * 1024 * 1024,
  maxLineLength: 1024 * 1024,
  maxResponseSize: 22 * 1024 * 1024,
  maxResponseTokens: 50_000,
};

export interface WatcherParts {
  db: Database;
  commands: InputCommands;
  intake: InputIntake;
  log: Pick<Logger, 'info' | 'warn'>;
  pollMs: number;
}

/** Whether the sender is one of the input's allowed addresses or domains. */
export function allowedSender(from: string, allowed: string[]): boolean {
  const address = from.trim().toLowerCase();
  return allowed.some((entry) => {
    const rule = entry.trim().toLowerCase();
    return rule.startsWith('@') ? address.endsWith(rule) : address === rule;
  });
}

/** This process's watchers, one per active imap input. */
export class MailWatchers {
  handled = 0;
  private readonly watchers = new Map<string, Watcher>();
  private stopping = false;
  readonly processId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(private readonly parts: WatcherParts) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Starts, restarts and stops watchers to match the inputs as stored (the periodic job). */
  async reconcile(): Promise<void> {
    if (this.stopping) return;
    const ids = await this.parts.commands.imapInputs.ids('all');
    const docs = await Promise.all(ids.map((id) => this.parts.commands.models.Input.findById(id).lean<InputDoc>()));
    const wanted = new Map<string, InputDoc>();
    for (const doc of docs) if (doc?.kind === 'imap' && doc.active) wanted.set(doc._id, doc);
    for (const [id, watcher] of this.watchers) {
      const doc = wanted.get(id);
      if (doc && doc.updatedAt.getTime() === watcher.version) continue;
      this.watchers.delete(id);
      await watcher.stop();
    }
    for (const [id, doc] of wanted) {
      if (this.watchers.has(id)) continue;
      const watcher = new Watcher(doc, this.parts, this.processId, () => this.handled++);
      this.watchers.set(id, watcher);
      watcher.start();
    }
  }

  /** Logs every watcher out (the service is stopping). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.watchers.values()].map((w) => w.stop()));
    this.watchers.clear();
  }
}

class Watcher {
  readonly version: number;
  private client: ImapFlow | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private again = false;

  constructor(
    private readonly input: InputDoc,
    private readonly parts: WatcherParts,
    private readonly processId: string,
    private readonly counted: () => void,
  ) {
    this.version = input.updatedAt.getTime();
  }

  private get settings(): ImapSettingsInput {
    return this.input.settings as ImapSettingsInput;
  }

  private startedAt = Date.now();

  start(): void {
    this.startedAt = Date.now();
    this.loop = this.run();
  }

  /** Lets the message in hand finish (so that it is marked seen), then logs out; at most STOP_WAIT_MS. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop, new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    await this.client?.logout().catch(() => this.client?.close());
    await this.loop;
  }

  // Connects, looks, waits for news (or the poll), looks again; on failure notes it and tries later.
  private async run(): Promise<void> {
    for (let failures = 0; !this.stopped;) {
      const since = Date.now();
      try {
        await this.connect();
        await this.note(null);
        while (!this.stopped && this.client?.usable) {
          this.again = false;
          await this.look();
          if (!this.again) await this.waitForNews();
        }
      } catch (err) {
        if (this.stopped) break;
        const reason = describe(err, this.settings);
        this.parts.log.warn({ inputId: this.input._id, reason }, 'e-mail input: not connected');
        await this.note(reason);
      } finally {
        const client = this.client;
        this.client = null;
        client?.close();
      }
      // A connection that held for a while starts the backoff anew; one the server closes at once
      // (or refuses) waits longer each time.
      if (Date.now() - since > STABLE_MS) failures = 0;
      if (!this.stopped) await this.pause(BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
    }
  }

  private async connect(): Promise<void> {
    const s = this.settings;
    const client = new ImapFlow({
      host: s.host,
      port: s.port ?? (s.tls === false ? 143 : 993),
      secure: s.tls !== false,
      auth: { user: s.user, pass: this.parts.commands.password(this.input) },
      logger: false,
      // IDLE soon after each look (ImapFlow waits 15 s by default), so that a new mail comes as EXISTS
      // at once instead of at the next poll.
      disableAutoIdle: false,
      autoIdleDelay: 200,
      // A server that stops answering is noticed and reconnected to.
      socketTimeout: 5 * 60_000,
      ...LIMITS,
    });
    client.on('error', () => undefined);
    client.on('exists', () => {
      this.again = true;
      this.wake?.();
    });
    client.on('close', () => this.wake?.());
    this.client = client;
    // A name that resolves to a link-local address (a cloud's metadata service) is refused.
    const addresses = await lookup(s.host, { all: true });
    const local = addresses.find((a) => linkLocal(a.address));
    if (local) throw new Error(`the server ${s.host} resolves to a link-local address (${local.address})`);
    await client.connect();
    await client.mailboxOpen(s.folder ?? 'INBOX');
  }

  private waitForNews(): Promise<void> {
    return this.pause(this.parts.pollMs);
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  // Every unseen message, oldest first.
  private async look(): Promise<void> {
    const client = this.client!;
    const uidValidity = String(client.mailbox ? client.mailbox.uidValidity : 0n);
    const uids = (await client.search({ seen: false }, { uid: true })) || [];
    for (const uid of uids.sort((a, b) => a - b)) {
      if (this.stopped) return;
      await this.handle(client, uidValidity, uid);
    }
  }

  private async handle(client: ImapFlow, uidValidity: string, uid: number): Promise<void> {
    const claims = this.parts.commands.models.MailClaim;
    const _id = `${this.input._id}:${uidValidity}:${uid}`;
    const until = () => new Date(Date.now() + CLAIM_MS);
    const taken = await claims
      .create({ _id, inputId: Number(this.input._id), by: this.processId, until: until(), done: false })
      .then(
        () => true,
        (err: unknown) => {
          if (isDuplicateKey(err)) return false;
          throw err;
        },
      );
    if (!taken) {
      const held = await claims.findById(_id).lean();
      if (!held) return;
      // Handled (its \Seen may not have been stored): seen now. Under way elsewhere: left to it.
      if (held.done) return void (await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }));
      if (held.until.getTime() > Date.now()) return;
      const { matchedCount } = await claims.updateOne(
        { _id, by: held.by, until: held.until },
        { $set: { by: this.processId, until: until() } },
      );
      if (matchedCount !== 1) return;
    }
    const message = await client.fetchOne(
      String(uid),
      { envelope: true, internalDate: true, size: true, source: { maxLength: MAX_MESSAGE_BYTES + 1 } },
      { uid: true },
    );
    if (!message) return;
    const from = message.envelope?.from?.[0]?.address ?? '';
    const received = new Date(message.internalDate ?? Date.now());
    // Old: it was in the folder well before this watcher began; a backlog that came since still rings.
    const age = this.startedAt - received.getTime();
    const note = (outcome: 'ignored' | 'failed', reason: string) =>
      this.parts.intake.note(this.input, { from, type: 'message/rfc822', outcome, reason });
    if (!allowedSender(from, this.settings.allowedSenders))
      await note('ignored', `the sender ${from || '(none)'} is not allowed`);
    else if (age > TOO_OLD_MS)
      await note(
        'ignored',
        `it arrived ${Math.round(age / 60_000)} minutes before the input began to watch: old mail raises nothing`,
      );
    else if ((message.size ?? 0) > MAX_MESSAGE_BYTES || (message.source?.length ?? 0) > MAX_MESSAGE_BYTES)
      await note('failed', `the e-mail is larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`);
    // Waits its turn for a conversion however many are queued: the mail is claimed, the alarm must come.
    else
      await this.parts.intake.take(
        this.input,
        { body: message.source!, type: 'message/rfc822', from },
        { queue: true },
      );
    await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
    await claims.updateOne({ _id }, { $set: { done: true } });
    this.counted();
  }

  private async note(lastError: string | null): Promise<void> {
    await this.parts.commands.models.Input.updateOne({ _id: this.input._id }, { $set: { lastError } }).catch(
      () => undefined,
    );
  }
}

// Why the mailbox could not be used, in words an admin acts on.
function describe(err: unknown, s: ImapSettingsInput): string {
  const e = err as Error & { code?: string; authenticationFailed?: boolean; responseText?: string };
  if (e.authenticationFailed) return `the server refused the login of ${s.user} (wrong user or password)`;
  if (e.code === 'ENOTFOUND') return `the server ${s.host} is not known (DNS)`;
  if (e.code === 'ECONNREFUSED') return `the server ${s.host}:${s.port} refused the connection`;
  if (e.code === 'ETIMEDOUT' || e.code === 'CONNECT_TIMEOUT') return `the server ${s.host}:${s.port} did not answer`;
  if (e.responseText && /mailbox|folder|exist/i.test(e.responseText))
    return `the folder ${s.folder ?? 'INBOX'} cannot be opened (${e.responseText})`;
  return `the mailbox could not be read: ${e.responseText ?? e.message}`;
}
