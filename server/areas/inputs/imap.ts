// E-mail inputs (docs/inputs.md "E-mail"): each process watches every active imap input's folder with
// ImapFlow — IDLE where the server has it (a new message arrives as `exists`), and a look every
// INPUT_IMAP_POLL_MS besides. A new message is claimed by a unique insert of "<inputId>:<uidvalidity>:<uid>"
// before it is read, so of the processes watching one mailbox exactly one handles it, once, across
// restarts; a claim whose process died is taken over when it runs out. A second claim, by the hash of
// its source, keeps a message from raising again when the server gives it a new UIDVALIDITY and UID. A message from an allowed sender
// goes to the intake as an e-mail (its text part, else its PDF or image) and is marked \Seen; others are
// noted as ignored. A message that was already in the folder long before it was first seen (a mailbox
// full of old mail, switched on as an input) raises nothing. Wrong credentials and unreachable servers
// show in the input's lastError; the watcher tries again, later each time. A server that stalls or
// trickles is given up after a time (answerMs) and connected to anew.
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { ImapSettingsInput } from '../../../schemas/inputs.js';
import type { Database } from '../../db/database.js';
import { insertOnce } from '../../db/errors.js';
import { linkLocal, type InputCommands } from './commands.js';
import type { InputIntake } from './intake.js';
import type { InputDoc, MailClaimDoc } from './models.js';
import { noteError } from './status.js';

/** A message older than this when first seen raises nothing. */
export const TOO_OLD_MS = 10 * 60_000;
/**
 * How long a claim holds while its message is handled: longer than the worst a document can take (a
 * scanned PDF: pdftotext, pdftoppm and 5 pages of OCR at 30 s each) and its wait for a conversion slot.
 */
const CLAIM_MS = 10 * 60_000;
/** The largest message read. */
const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
/**
 * The waits between attempts while the server cannot be used, growing to 15 s: an alarm mail waits at
 * most that long once the server is back, and an attempt every 15 s costs a server nothing.
 */
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 15_000];
/**
 * How long the server may stay quiet in the middle of an answer, and how long a whole exchange (the
 * login and opening the folder, a search, storing \Seen) may take, before the connection is given up
 * and made anew: three poll intervals, at least 10 s (30 s by default). ImapFlow's own default, five
 * minutes (ten in IDLE), left an alarm mail waiting that long behind a stalled connection.
 */
export const answerMs = (pollMs: number) => Math.max(10_000, 3 * pollMs);
/** How long reading one message may take. */
const READ_MS = 5 * 60_000;
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
      try {
        await this.connect();
        await this.note(null);
        while (!this.stopped && this.client?.usable) {
          this.again = false;
          await this.look();
          // A connection that got as far as a look was a good one: should it drop (the server
          // restarted), the next attempt comes at once, not after the waits of an earlier outage.
          failures = 0;
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
      // Attempts that fail (refused, or closed before a look) wait longer each time.
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
      // A server that stops answering is noticed and reconnected to (in IDLE, a NOOP probes it first).
      connectionTimeout: this.answerMs,
      greetingTimeout: this.answerMs,
      socketTimeout: this.answerMs,
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
    await this.within(client, 'the login', async () => {
      await client.connect();
      await client.mailboxOpen(s.folder ?? 'INBOX');
    });
  }

  private get answerMs(): number {
    return answerMs(this.parts.pollMs);
  }

  /**
   * An exchange with the server that must end within `limit`, by default twice the answer time: a server
   * that trickles its answer a byte at a time never goes quiet, so the socket's timeout alone would wait
   * for it forever. Past it, the connection is closed (the watcher makes a new one) and the exchange fails.
   */
  private async within<T>(
    client: ImapFlow,
    what: string,
    work: () => Promise<T>,
    limit = 2 * this.answerMs,
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const running = work();
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        running.catch(() => undefined);
        client.close();
        reject(Object.assign(new Error(`${what} took longer than ${limit / 1000} s`), { code: 'ANSWER_TIMEOUT' }));
      }, limit);
    });
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
    }
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
    const uids = (await this.within(client, 'a search', () => client.search({ seen: false }, { uid: true }))) || [];
    for (const uid of uids.sort((a, b) => a - b)) {
      if (this.stopped) return;
      await this.handle(client, uidValidity, uid);
    }
  }

  // A message is claimed twice: by its place in the folder ("<inputId>:<uidvalidity>:<uid>"), before it
  // is read, and by what it is ("<inputId>:message:<SHA-256 of its source>"), once read. A server that
  // forgets its UIDs (a new UIDVALIDITY: a restore, a migration, a recreated folder) shows the same
  // messages at new places, unread if it lost their flags as well; the second claim knows them, so they
  // are marked \Seen and raise nothing again. Not the Message-ID: anyone can send a mail with the ID of
  // an alarm mail to come, which would then be taken for one handled before (docs/inputs.md "E-mail").
  private async handle(client: ImapFlow, uidValidity: string, uid: number): Promise<void> {
    const claims = this.parts.commands.models.MailClaim;
    const place = `${this.input._id}:${uidValidity}:${uid}`;
    const seen = () =>
      this.within(client, 'storing \\Seen', () => client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }));
    const placed = await this.claim(place);
    // Handled (its \Seen may not have been stored): seen now. Under way elsewhere: left to it.
    if (placed === 'done') return void (await seen());
    if (placed === 'busy') return;
    const message = await this.within(
      client,
      'reading a message',
      () =>
        client.fetchOne(
          String(uid),
          { envelope: true, internalDate: true, size: true, source: { maxLength: MAX_MESSAGE_BYTES + 1 } },
          { uid: true },
        ),
      // A message of up to 20 MiB on a slow line: 5 minutes (35 KB/s), well within its claim's 10.
      READ_MS,
    );
    // Listed by the search but not there when read (expunged meanwhile, or a server in error): the claim
    // is let go, so that the next look tries again if it is listed again.
    // A message read without its source (a server in error) too: its hash would be that of every such one.
    if (!message || !message.source?.length) return void (await this.release(place));
    const what = `${this.input._id}:message:${createHash('sha256').update(message.source).digest('hex')}`;
    const known = await this.claim(what);
    if (known === 'done') {
      await claims.updateOne({ _id: place }, { $set: { done: true } });
      this.parts.log.info(
        { inputId: this.input._id, uid, uidValidity },
        'e-mail input: a message handled before, at another UID',
      );
      return void (await seen());
    }
    // The same message at its other place, in another process's hands: looked at again next time.
    if (known === 'busy') return void (await this.release(place));
    // Every address of From must be allowed: one allowed address beside a stranger's is no sign that the
    // allowed sender wrote it (docs/inputs.md "E-mail").
    const senders = (message.envelope?.from ?? []).map((a) => a.address ?? '');
    const from = senders.join(', ');
    const received = new Date(message.internalDate ?? Date.now());
    // Old: it was in the folder well before this watcher began; a backlog that came since still rings.
    const age = this.startedAt - received.getTime();
    const note = (outcome: 'ignored' | 'failed', reason: string) =>
      this.parts.intake.note(this.input, { from, type: 'message/rfc822', outcome, reason });
    if (senders.length === 0 || !senders.every((sender) => allowedSender(sender, this.settings.allowedSenders)))
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
    // Done as soon as it is taken: \Seen is stored after, and should that fail (the connection gone), the
    // next look finds the claim done and stores it then.
    await claims.updateMany({ _id: { $in: [place, what] } }, { $set: { done: true } });
    this.counted();
    await seen();
  }

  // Mine (made now, or taken over from a process that died: its time ran out), done, or busy elsewhere.
  private claim(_id: string): Promise<'mine' | 'done' | 'busy'> {
    return claimMail(this.parts.commands.models.MailClaim, _id, Number(this.input._id), this.processId);
  }

  private async release(_id: string): Promise<void> {
    await this.parts.commands.models.MailClaim.deleteOne({ _id, by: this.processId, done: false });
  }

  private async note(lastError: string | null): Promise<void> {
    await noteError(this.parts.commands.models, this.input._id, lastError).catch(() => undefined);
  }
}

/** Takeovers of one message followed: more is a storm of processes dying with it. */
const MAX_TAKEOVERS = 50;

/**
 * Claims a message for a process: 'mine' (made now, or taken over from a process that died: its time
 * ran out), 'done', or 'busy' elsewhere. The takeover is a unique insert too, of the expired claim's
 * successor ("<claim>@<until>"): a conditional update would not do, on the embedded engine two at once
 * both match (docs/storage.md "Rules for a model").
 */
export async function claimMail(
  claims: Model<MailClaimDoc>,
  _id: string,
  inputId: number,
  by: string,
): Promise<'mine' | 'done' | 'busy'> {
  // One time for the claim and its takeover: a takeover that read the claim long ago finds its own
  // successor's key taken, not a key of a later time.
  const until = new Date(Date.now() + CLAIM_MS);
  const insert = (key: string) => insertOnce(claims, { _id: key, inputId, by, until, done: false });
  if (await insert(_id)) return 'mine';
  const held = await claims.findById(_id).lean();
  if (!held) return 'busy';
  if (held.done) return 'done';
  // The claim's holder, or the last of those who took it over: should one of them have died before it
  // wrote the claim, its own successor document still runs out, and the next takes over from it.
  let holder: Pick<MailClaimDoc, 'until'> | null = held;
  for (let step = 0; holder && step < MAX_TAKEOVERS; step++) {
    if (holder.until.getTime() > Date.now()) return 'busy';
    if (await insert(`${_id}@${holder.until.getTime()}`)) {
      // Done, release and the next look read the claim itself.
      await claims.updateOne({ _id }, { $set: { by, until } });
      return 'mine';
    }
    holder = await claims.findById(`${_id}@${holder.until.getTime()}`, { until: 1 }).lean();
  }
  return 'busy';
}

// Why the mailbox could not be used, in words an admin acts on.
function describe(err: unknown, s: ImapSettingsInput): string {
  const e = err as Error & { code?: string; authenticationFailed?: boolean; responseText?: string };
  if (e.authenticationFailed) return `the server refused the login of ${s.user} (wrong user or password)`;
  if (e.code === 'ENOTFOUND') return `the server ${s.host} is not known (DNS)`;
  if (e.code === 'ECONNREFUSED') return `the server ${s.host}:${s.port} refused the connection`;
  if (e.code === 'ETIMEDOUT' || e.code === 'CONNECT_TIMEOUT' || e.code === 'GREETING_TIMEOUT' || e.code === 'ETIMEOUT')
    return `the server ${s.host}:${s.port} did not answer`;
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.code === 'NoConnection')
    return `the server ${s.host}:${s.port} closed the connection`;
  if (e.code === 'ANSWER_TIMEOUT') return `the server ${s.host}:${s.port} answered too slowly: ${e.message}`;
  if (e.responseText && /mailbox|folder|exist/i.test(e.responseText))
    return `the folder ${s.folder ?? 'INBOX'} cannot be opened (${e.responseText})`;
  return `the mailbox could not be read: ${e.responseText ?? e.message}`;
}
