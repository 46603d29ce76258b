// Never send a model: REST and the hub present journals, entries and categories through these.
import type { CategoryView } from '../../../schemas/journal.js';
import type { CategoryDoc, EntryDoc, JournalDoc, Stamp } from './models.js';
import type { JournalStateData } from './state.js';

/** Who did something and when, as the interface shows it: userId, or null and the API key's ID. */
export interface StampView {
  time: string;
  userId: number | null;
  apiKeyId?: number;
}

export interface JournalEntryView {
  id: number;
  journalId: number;
  serialNumber: number;
  text: string;
  location: string;
  attachment: string;
  category: CategoryView | null;
  created: StampView & { timeCustom: string | null };
  deleted: StampView | null;
}

/** A journal without its entries (J7, J8, close, force-unlock, and the hub's events). */
export interface JournalStateView {
  id: number;
  organizationId: number;
  eventId: number | null;
  closed: boolean;
  locked: StampView | null;
}

export interface JournalView extends JournalStateView {
  entryList: { entries: JournalEntryView[]; totalEntries: number };
}

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
