// Resolving a credential costs one or two database reads; a busy client sends many requests a second
// with the same one. Known credentials are kept for a short time (CREDENTIAL_CACHE_MS, default 1000), so
// a revoked token or a changed membership takes effect within that time on every process (at once on
// the process that made the change); a removed screen's token is forgotten at once on every process
// (the hub tells them). Unknown credentials are never cached (their answers stay rate limited). The
// hub's recheck still drops connected screens within TOKEN_RECHECK_MS.
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { CredentialReader, type Caller } from './actor.js';
import { credentialChangeMark } from './credential-changes.js';
import type { TokenKind } from './models.js';
import { hashToken } from './tokens.js';

const MAX_ENTRIES = 10_000;

/** Credentials resolved recently, by their hash. */
export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; kind: TokenKind; at: number }>();
  /** Counts forget() calls: a read that saw one happen may have read the credential before its revocation. */
  private forgets = 0;
  /** A restored database empties the cache (server/db/generation.ts): the generation it was filled under. */
  private seen: number;
  private readonly reader: CredentialReader;
  /** Reads under way, by kind and hash. */
  private readonly reading = new Map<string, Promise<Caller | null>>();
  /** The latest credential change mark read here (credential-changes.ts); null before the first. */
  private mark: string | null = null;
  private firstMarkRead: Promise<string | null> | null = null;
  /** For each caller read here, the mark this process knew before reading it. */
  private readonly readUnder = new WeakMap<Caller, string | null>();

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
    log?: Pick<Logger, 'debug'>,
  ) {
    this.seen = db.generation.current;
    this.reader = new CredentialReader(db, log);
  }

  /** The caller for a token under a scheme, from the cache while it is fresh. */
  async resolve(kind: TokenKind, token: string): Promise<Caller | null> {
    if (this.ttlMs <= 0) return this.reader.resolve(kind, token);
    if (this.seen !== this.db.generation.current) {
      this.entries.clear();
      this.mark = null;
      this.firstMarkRead = null;
      this.seen = this.db.generation.current;
    }
    const key = hashToken(token);
    const hit = this.entries.get(key);
    if (hit && hit.kind === kind && Date.now() - hit.at < this.ttlMs) return hit.caller;
    // One read per credential at a time: screens sharing a key that all reconnect at once (a restart,
    // a network blip) wait for the same read instead of each queuing for a database connection.
    const flight = `${kind}:${key}`;
    let read = this.reading.get(flight);
    if (!read) {
      read = this.read(kind, token, key).finally(() => this.reading.delete(flight));
      this.reading.set(flight, read);
    }
    return read;
  }

  private async read(kind: TokenKind, token: string, key: string): Promise<Caller | null> {
    let caller: Caller | null;
    let seen: number;
    // A credential forgotten during the read may be this one, revoked after the read began: read again,
    // so neither this answer nor the cache carries it past the revocation.
    let mark: string | null;
    do {
      seen = this.forgets;
      mark = this.mark ?? (await this.firstMark());
      caller = await this.reader.resolve(kind, token);
    } while (seen !== this.forgets);
    if (caller) this.readUnder.set(caller, mark);
    this.entries.delete(key);
    if (caller) {
      this.entries.set(key, { caller, kind, at: Date.now() });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return caller;
  }

  /**
   * The latest credential change mark, read now: read it before the credentials it is to vouch for.
   * A mark never returns once another replaced it (each is random; a restore clears what this process
   * knew), so a caller read under a mark that is still the latest has lost no rights since.
   */
  async changeMark(): Promise<string> {
    const generation = this.db.generation.current;
    const mark = await credentialChangeMark(this.db);
    if (generation === this.db.generation.current) this.mark = mark;
    return mark;
  }

  // A fresh process reads the mark once before its first credentials (a storm's handshakes share the
  // read), so that the hub's first recheck does not read them all again. Unknown if the read fails.
  private firstMark(): Promise<string | null> {
    this.firstMarkRead ??= this.changeMark().catch(() => {
      this.firstMarkRead = null;
      return null;
    });
    return this.firstMarkRead;
  }

  /**
   * The mark this process knew before it read `caller`'s credential: when it is still the latest, no
   * change since could have taken the caller's rights away. Null when unknown (not read through here).
   */
  readUnderMark(caller: Caller): string | null {
    return this.readUnder.get(caller) ?? null;
  }

  /** Forgets a revoked credential by its stored hash. */
  forget(credential: string): void {
    this.forgets++;
    this.entries.delete(credential);
  }
}
