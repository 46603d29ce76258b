// A document for an input (docs/inputs.md "What happens to a document"): its text (convert.ts), the
// profile's fields (profile.ts), the alarm — raised, or merged into the incident's running alarm
// (alarms/incidents.ts) — and its entry in IP6 with the outcome and the reason. Conversions (OCR takes
// seconds and a core) run at most CONVERSIONS at a time per process; more wait, past WAITING they are
// refused with 503 so that a flood of uploads cannot starve the service.
import type { Logger } from 'pino';
import type { TryResultView } from '../../../schemas/inputs.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { unitNamesOf } from '../../identity/lookup.js';
import type { Incidents } from '../alarms/incidents.js';
import { ConversionError, documentText, mailText, type ConvertOptions, type DocumentType } from './convert.js';
import type { InputDocuments } from './documents.js';
import type { InputDoc } from './models.js';
import { extract, ProfileRunner } from './profile.js';

const CONVERSIONS = 2;
const WAITING = 20;

// A text (and IP5's JSON text) runs no tool: it does not wait behind PDFs and images being read, so
// two hostile ones cannot hold up a plain text alarm (docs/inputs.md "Documents", Limits).
const needsTurn = (type: string) => type !== 'text/plain' && type !== 'application/json';

// Each profile field as not found (the document gave no text, or the expressions ran out of time).
const nothingFound = (input: InputDoc) =>
  Object.fromEntries(Object.keys(input.profile?.fields ?? {}).map((f) => [f, null]));

/** How a document waits for its conversion: `admitted` (IP4, IP5 took their turn before reading the body), or `queue` without bound (a claimed e-mail). */
export interface Turn {
  admitted?: boolean;
  queue?: boolean;
}

/** A document as it arrived. */
export interface Arrived {
  body: Buffer;
  type: DocumentType;
  /** The sender (an e-mail's), or who uploaded it. */
  from: string;
}

export interface Taken {
  documentId: string;
  outcome: 'raised' | 'merged' | 'ignored' | 'failed';
  alarmId: number | null;
  reason: string | null;
}

/** Turns documents into alarms. */
export class InputIntake {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly documents: InputDocuments,
    private readonly incidents: () => Incidents,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    private readonly convert: ConvertOptions = {},
  ) {}

  /** Where the profiles run (profile.ts): off the event loop. */
  readonly profiles = new ProfileRunner();

  /** A document for an imap or document input, handled whole; its IP6 entry says what became of it. */
  async take(input: InputDoc, arrived: Arrived, turn: Turn = {}): Promise<Taken> {
    const note = async (outcome: Taken['outcome'], rest: { alarmId?: number; reason?: string; text?: string }) => {
      const documentId = await this.documents.record(input, {
        from: arrived.from,
        type: arrived.type,
        outcome,
        ...rest,
      });
      this.log.info(
        { inputId: input._id, documentId, outcome, alarmId: rest.alarmId, reason: rest.reason },
        'input document',
      );
      return { documentId, outcome, alarmId: rest.alarmId ?? null, reason: rest.reason ?? null };
    };
    if (!input.active) return note('ignored', { reason: 'the input is switched off' });
    let text: string;
    try {
      text = await this.textOf(arrived, turn);
    } catch (err) {
      if (err instanceof ConversionError) return note('failed', { reason: err.message });
      throw err;
    }
    let found;
    try {
      found = await extract(this.profiles, text, input.profile!, await this.unitsFor(input));
    } catch (err) {
      return note('failed', { reason: (err as Error).message, text });
    }
    if (!found.alarm) return note('ignored', { reason: found.reason ?? 'nothing to raise', text });
    const { dispatchNumber, keyword, latitude, longitude, ...alarm } = found.alarm;
    const { alarmId, outcome } = await this.incidents().raise(
      input.organizationId,
      {
        ...alarm,
        ...(latitude !== null && longitude !== null ? { latitude, longitude } : {}),
        dispatchNumber,
        keyword,
        ...(input.monitorIds ? { monitorIds: input.monitorIds, skipUnknownMonitors: true } : {}),
        ...(input.channels ? { channels: input.channels } : {}),
      },
      { kind: input.kind as 'imap' | 'document', inputId: Number(input._id), name: input.name, at: new Date() },
    );
    return note(outcome, { alarmId, text });
  }

  /** A document that is not read (a sender not allowed, too old, too large), noted with why. */
  async note(
    input: InputDoc,
    what: { from: string; type: string; outcome: 'ignored' | 'failed'; reason: string },
  ): Promise<void> {
    await this.documents.record(input, what);
    this.log.info(
      { inputId: input._id, from: what.from, outcome: what.outcome, reason: what.reason },
      'input document',
    );
  }

  /** IP5: what the document (or text) would raise; raises nothing and notes nothing. */
  async tryIt(input: InputDoc, arrived: Arrived | { text: string }, turn: Turn = {}): Promise<TryResultView> {
    let text: string;
    try {
      text = 'text' in arrived ? arrived.text : await this.textOf(arrived, turn);
    } catch (err) {
      if (err instanceof ConversionError)
        return { text: '', fields: nothingFound(input), alarm: null, reason: err.message };
      throw err;
    }
    try {
      const found = await extract(this.profiles, text, input.profile!, await this.unitsFor(input));
      return { text, fields: found.fields, alarm: found.alarm, reason: found.reason };
    } catch (err) {
      return { text, fields: nothingFound(input), alarm: null, reason: (err as Error).message };
    }
  }

  // The organization's unit names, read only when the profile finds units (it reads every member).
  private unitsFor(input: InputDoc): Promise<string[]> {
    return input.profile?.fields.units ? unitNamesOf(this.db, input.organizationId) : Promise.resolve([]);
  }

  // The document's text, converted in turn with the others.
  private async textOf(arrived: Arrived, turn: Turn): Promise<string> {
    const release = turn.admitted || !needsTurn(arrived.type) ? () => undefined : await this.slot(turn.queue ?? false);
    try {
      if (arrived.type === 'message/rfc822') {
        const mail = await mailText(arrived.body, this.convert);
        return mail.subject ? `${mail.subject}\n${mail.text}` : mail.text;
      }
      return (await documentText(arrived.body, arrived.type, this.convert)).text;
    } finally {
      release();
    }
  }

  /** An upload's turn (IP4, IP5), taken before its body is read: 503 when too many wait already. A text needs none. */
  admit(type = ''): Promise<() => void> {
    return needsTurn(type) ? this.slot(false) : Promise.resolve(() => undefined);
  }

  private async slot(unbounded: boolean): Promise<() => void> {
    if (this.running >= CONVERSIONS) {
      if (!unbounded && this.queue.length >= WAITING)
        throw new AppError(
          503,
          'unavailable',
          'Too many documents are being read now; send it again shortly',
          undefined,
          {
            'Retry-After': '5',
          },
        );
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.running++;
    return () => {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    };
  }
}
