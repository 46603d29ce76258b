// Answer links (AN1, AN2; docs/alarms.md "Answering without the app"): every alarm SMS ends with
// <PUBLIC_URL>/a/<token>, a page that shows the alarm and takes the member's answer without signing in.
// A token names the alarm and the member and is signed: the two IDs (unsigned LEB128) and 96 bits of an
// HMAC-SHA256 over them, the alarm's organization and its start, in base64url — 19 to 27 characters for
// IDs up to eight digits, so the link fits one SMS segment beside the alarm. The key is the database's
// own (`alarm_link_keys`, made by the first process that needs it, never in a backup). Issuing a link
// writes nothing; using one reads the alarm by its ID. It works while the alarm runs (an hour after its
// end it still shows it, taking no answer), at most a day after the alarm began, and only while he is a
// member. Unknown, expired and foreign tokens answer the same 404. Links issued before 2026-12-02 were
// 128 random bits, stored as their SHA-256: those still answer until their day is out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AN2Input, AnswerLinkViewOut } from '../../../schemas/answer-links.js';
import type { Database } from '../../db/database.js';
import { madeOnce } from '../../db/made-once.js';
import { AppError, unavailable } from '../../errors.js';
import { namesOf, organizationName, roleOf } from '../../identity/lookup.js';
import { hashToken } from '../../identity/tokens.js';
import type { AlarmAnswer } from '../app/replies.js';
import { answerModels, type AnswerLinkDoc, type AnswerModels } from './answer-models.js';
import { ENDED } from './answers.js';
import type { AlarmDoc } from './models.js';
import type { AlarmRecords } from './records.js';

/** A link answers for at most this long after its alarm began. */
export const LINK_TTL_MS = 24 * 3_600_000;
/** After the alarm ended its page still shows it (and his answer) this long. */
export const SHOWN_AFTER_END_MS = 3_600_000;

/** Unknown, expired or no longer his: alike, so nothing tells a guesser which. */
export const invalidLink = () =>
  new AppError(
    404,
    'invalid_code',
    'This answer link is unknown or no longer valid: it works while the alarm runs, and shows it for an hour after',
  );

/** Bytes of a token's MAC: 96 bits, against which every guess is checked online (and rate limited). */
const MAC_BYTES = 12;
/** The one key document's _id. */
const KEY_ID = 'answer-links';
/** The key as read is trusted this long, then read again. */
const KEY_TRUST_MS = 60_000;
/** The length of the tokens of links stored before 2026-12-02 (128 random bits). */
const STORED_LENGTH = 22;
/** The signed input's format, first in it: a later format cannot be taken for this one. */
const FORMAT = 1;

/** What a link answers for: the alarm and the member, and until when at most. */
type LinkClaims = Pick<AnswerLinkDoc, 'alarmId' | 'organizationId' | 'userId' | 'expiresAt'>;

// Unsigned LEB128 of a non-negative safe integer.
function leb128(n: number, out: number[]): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not an ID: ${n}`);
  for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
  out.push(n);
  return out;
}

// The integer at `at` and where the next begins, or null (cut short, or past a safe integer).
function readLeb128(bytes: Buffer, at: number): [number, number] | null {
  let n = 0;
  for (let i = at, scale = 1; i < bytes.length && i < at + 8; i++, scale *= 128) {
    n += (bytes[i] & 127) * scale;
    if (bytes[i] < 128) return Number.isSafeInteger(n) ? [n, i + 1] : null;
  }
  return null;
}

/** What a token spells: the alarm's ID and the member's. */
const claimsOf = (alarmId: number, userId: number) => Buffer.from(leb128(userId, leb128(alarmId, [])));

/** The MAC of a link: over the claims, the alarm's organization and its start (a reused ID is another alarm). */
function macOf(key: Buffer, alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>, userId: number): Buffer {
  const signed = leb128(
    alarm.startedAt.getTime(),
    leb128(alarm.organizationId, [FORMAT, ...claimsOf(alarm.id, userId)]),
  );
  return createHmac('sha256', key).update(Buffer.from(signed)).digest().subarray(0, MAC_BYTES);
}

// The claims of a token in our one spelling, or null (a stored link's token, or a guess).
function decode(token: string): { alarmId: number; userId: number; mac: Buffer } | null {
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length <= MAC_BYTES || bytes.toString('base64url') !== token) return null;
  const alarm = readLeb128(bytes, 0);
  const user = alarm && readLeb128(bytes, alarm[1]);
  if (!alarm || !user || user[1] !== bytes.length - MAC_BYTES) return null;
  if (!bytes.subarray(0, user[1]).equals(claimsOf(alarm[0], user[0]))) return null;
  return { alarmId: alarm[0], userId: user[0], mac: bytes.subarray(user[1]) };
}

/** Issues answer links and takes the answers given through them. */
export class AnswerLinks {
  private readonly models: AnswerModels;
  // The key as this process read it, again after a restore (the generation moves).
  private key: { generation: number; at: number; value: Promise<Buffer> } | null = null;

  constructor(
    private readonly db: Database,
    private readonly records: Pick<AlarmRecords, 'find' | 'models'>,
    /** Records an answer as every other way does (AlarmAnswers.answered): his latest counts. */
    private readonly answered: (answer: AlarmAnswer) => Promise<void>,
    /** The service's public URL, without a trailing slash. */
    private readonly base: () => string,
  ) {
    this.models = answerModels(db);
  }

  /** The link answering the alarm for the member: the same in each of his SMS of that alarm. */
  async issue(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>, userId: number): Promise<string> {
    const mac = macOf(await this.signingKey(), alarm, userId);
    return `${this.base()}/a/${Buffer.concat([claimsOf(alarm.id, userId), mac]).toString('base64url')}`;
  }

  /** AN1: the alarm the link answers, and his answer so far. */
  async view(token: string): Promise<AnswerLinkViewOut> {
    const { link, alarm } = await this.open(token);
    return this.present(link, alarm);
  }

  /** AN2: his answer, recorded as any other (his latest counts); 409 once the alarm ended. */
  async answer(token: string, body: AN2Input): Promise<AnswerLinkViewOut> {
    const { link, alarm } = await this.open(token);
    if (alarm.endedAt) throw ENDED();
    await this.answered({
      organizationId: link.organizationId,
      alarmId: link.alarmId,
      userId: link.userId,
      response: body.response,
      distance: null,
      // Travel minutes belong to coming; with "not coming" they mean nothing.
      duration: body.response ? (body.duration ?? null) : null,
      enteredBy: null,
      whileRunning: true,
    });
    return this.present(link, alarm);
  }

  /** Removes the stored links (issued before 2026-12-02) past their time (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    return (await this.models.AnswerLink.deleteMany({ expiresAt: { $lt: new Date(now) } })).deletedCount;
  }

  private async open(token: string): Promise<{ link: LinkClaims; alarm: AlarmDoc }> {
    const signed = await this.verify(token);
    let link: LinkClaims | null;
    let alarm: AlarmDoc | null;
    let role: unknown;
    if (signed) {
      alarm = signed.alarm;
      link = {
        alarmId: alarm.id,
        userId: signed.userId,
        organizationId: alarm.organizationId,
        expiresAt: new Date(alarm.startedAt.getTime() + LINK_TTL_MS),
      };
      role = await roleOf(this.db, link.organizationId, link.userId);
    } else {
      link = token.length === STORED_LENGTH ? await this.models.AnswerLink.findById(hashToken(token)).lean() : null;
      if (!link) throw invalidLink();
      [alarm, role] = await Promise.all([
        this.records.find(link.alarmId),
        roleOf(this.db, link.organizationId, link.userId),
      ]);
    }
    const now = Date.now();
    // Past its day, the alarm gone or long over, or he left the organization: the link is spent.
    if (link.expiresAt.getTime() <= now) throw invalidLink();
    if (!alarm || alarm.organizationId !== link.organizationId || role === null) throw invalidLink();
    if (alarm.endedAt && alarm.endedAt.getTime() + SHOWN_AFTER_END_MS <= now) throw invalidLink();
    return { link, alarm };
  }

  // The alarm and member a token signs, or null: not one of ours (a stored link's, or a guess).
  private async verify(token: string): Promise<{ alarm: AlarmDoc; userId: number } | null> {
    const claims = decode(token);
    const alarm = claims && (await this.records.find(claims.alarmId));
    if (!claims || !alarm) return null;
    return timingSafeEqual(macOf(await this.signingKey(), alarm, claims.userId), claims.mac)
      ? { alarm, userId: claims.userId }
      : null;
  }

  /**
   * The database's key of the links: made by the first process that needs one, read again after a restore
   * or KEY_TRUST_MS (a key document removed or replaced by hand is everyone's again within that).
   */
  private signingKey(): Promise<Buffer> {
    const generation = this.db.generation.current;
    const now = Date.now();
    if (this.key?.generation !== generation || now - this.key.at > KEY_TRUST_MS) {
      // A read again that fails keeps the key read before (the same generation: no restore between).
      const before = this.key?.generation === generation ? this.key.value : null;
      const value = this.readKey().catch((err: unknown) => before ?? Promise.reject(err));
      // Not kept when it failed: the next caller reads again.
      value.catch(() => {
        if (this.key?.value === value) this.key = null;
      });
      this.key = { generation, at: now, value };
    }
    return this.key.value;
  }

  private async readKey(): Promise<Buffer> {
    // The first process to need the key makes it; every other one reads the winner's.
    const made = await madeOnce(this.models.LinkKey, KEY_ID, () => ({
      key: randomBytes(32).toString('base64'),
      createdAt: new Date(),
    }));
    if (!made) throw unavailable("The answer links' key could not be read yet");
    return Buffer.from(made.key, 'base64');
  }

  private async present(link: LinkClaims, alarm: AlarmDoc): Promise<AnswerLinkViewOut> {
    const answers = await this.records.models.answers.of(link.organizationId);
    const [organization, names, answer] = await Promise.all([
      organizationName(this.db, link.organizationId),
      namesOf(this.db, [link.userId]),
      answers.findById(`${link.alarmId}:${link.userId}`).lean(),
    ]);
    return {
      event: alarm.event,
      message: alarm.message,
      address: alarm.address,
      startedAt: alarm.startedAt.toISOString(),
      endedAt: alarm.endedAt?.toISOString() ?? null,
      organizationName: organization ?? '',
      name: names.get(link.userId) ?? '',
      answer: answer ? { response: answer.response, duration: answer.duration, at: answer.at.toISOString() } : null,
    };
  }
}
