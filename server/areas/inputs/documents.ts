// What an input received (IP6; docs/inputs.md "What happens to a document"): each document with the text it gave
// and what became of it (raised, merged, ignored, failed, and why), so that a station sees why something
// did or did not ring. The newest 50 per input are kept; older ones are removed as new ones come.
import type { DocumentOutcome, InputDocumentView } from '../../../schemas/inputs.js';
import type { Database } from '../../db/database.js';
import { IdIndex } from '../../db/id-index.js';
import type { InputDoc, InputDocumentDoc, InputModels } from './models.js';
import { noteReceived } from './status.js';

/** Documents kept per input. */
export const KEPT = 50;
/** The text kept of a document. */
const TEXT_KEPT = 20_000;

export interface Received {
  from: string;
  type: string;
  outcome: DocumentOutcome;
  alarmId?: number | null;
  reason?: string | null;
  text?: string;
}

/** The inputs' received documents. */
export class InputDocuments {
  private readonly byInput: IdIndex;

  constructor(
    private readonly db: Database,
    private readonly models: InputModels,
  ) {
    // Documents came only after this index: nothing to scan for.
    this.byInput = new IdIndex(models.InputIndex, db.system.Lock, 'input-documents', async () => []);
  }

  /** Notes a document and its outcome; the input's lastReceivedAt and lastError follow. Its ID. */
  async record(input: InputDoc, received: Received): Promise<string> {
    const id = String(await this.db.ids.next('inputDocument'));
    const doc: InputDocumentDoc = {
      _id: id,
      inputId: Number(input._id),
      organizationId: input.organizationId,
      receivedAt: new Date(),
      from: received.from.slice(0, 500),
      type: received.type.slice(0, 100),
      outcome: received.outcome,
      alarmId: received.alarmId ?? null,
      reason: received.reason?.slice(0, 2_000) ?? null,
      text: (received.text ?? '').slice(0, TEXT_KEPT),
    };
    await this.models.InputDocument.create(doc);
    await this.byInput.add(input._id, id);
    const failed = received.outcome === 'failed';
    await noteReceived(this.models, input._id, doc.receivedAt, failed ? doc.reason : null);
    const ids = await this.byInput.ids(input._id);
    for (const old of ids.slice(0, Math.max(0, ids.length - KEPT))) {
      await this.models.InputDocument.deleteOne({ _id: old });
      await this.byInput.remove(input._id, old);
    }
    return `${input._id}:${id}`;
  }

  /** IP6: the newest first. */
  async list(input: InputDoc): Promise<InputDocumentView[]> {
    const docs = await this.byInput.load(input._id, (id) => this.models.InputDocument.findById(id).lean());
    return docs.reverse().map((d) => ({
      id: `${input._id}:${d._id}`,
      receivedAt: d.receivedAt.toISOString(),
      from: d.from,
      type: d.type,
      outcome: d.outcome,
      alarmId: d.alarmId,
      reason: d.reason,
      text: d.text,
    }));
  }

  /** The input is gone: so are its documents. */
  async removeAll(input: InputDoc): Promise<void> {
    const ids = await this.byInput.ids(input._id);
    for (const id of ids) await this.models.InputDocument.deleteOne({ _id: id });
    await this.models.InputIndex.deleteOne({ _id: `input-documents:${input._id}` });
  }
}
