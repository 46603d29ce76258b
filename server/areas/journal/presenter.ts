// Never send a model: REST and the hub present journals, entries and categories through these (their
// shapes are the hub protocol's, common/hub-protocol.ts).
import type { CategoryView } from '../../../schemas/journal.js';
import type { JournalEntryView, JournalStateView, StampView } from '../../../common/hub-protocol.js';
import type { CategoryDoc, EntryDoc, JournalDoc, Stamp } from './models.js';
import type { JournalStateData } from './state.js';

/** The public shape of a stored category. */
export function presentCategory(doc: CategoryDoc): CategoryView {
  return { id: Number(doc._id), name: doc.name, description: doc.description, organizationId: doc.organizationId };
}

/** A stamp in the interface's shape. */
export function presentStamp({ time, by }: Stamp): StampView {
  return by.apiKeyId !== null ? { time, userId: null, apiKeyId: by.apiKeyId } : { time, userId: by.userId };
}

/** The public shape of a stored entry. */
export function presentEntry(doc: Omit<EntryDoc, '_id'>): JournalEntryView {
  return {
    id: doc.entryId,
    journalId: doc.journalId,
    serialNumber: doc.serial,
    text: doc.text,
    location: doc.location,
    attachment: doc.attachment,
    category: doc.category,
    created: { ...presentStamp(doc.created), timeCustom: doc.created.timeCustom },
    deleted: doc.deleted ? presentStamp(doc.deleted) : null,
  };
}

/** A journal's state at one log position, without entries. */
export function presentJournalState(journal: JournalDoc, state: JournalStateData): JournalStateView {
  return {
    id: Number(journal._id),
    organizationId: journal.organizationId,
    eventId: journal.eventId,
    closed: state.closed,
    locked: state.holder && state.lockedAt ? presentStamp({ time: state.lockedAt, by: state.holder }) : null,
  };
}
