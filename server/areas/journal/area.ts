// The journal (J1–J10, close, force-unlock, export; docs/api.md "Journal"): categories, a journal per
// organization and per event, the lock state table, serial numbers without gaps, exports as CSV or PDF.
import * as schemas from '../../../schemas/journal.js';
import { defineArea } from '../area.js';
import { CategoryCommands } from './categories.js';
import { EntryCommands } from './entries.js';
import { JournalExport } from './export.js';
import { JournalCommands } from './journals.js';
import { JournalLog } from './log.js';
import { journalModels } from './models.js';
import { journalOperations, type JournalAreaCommands } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    journal: JournalAreaCommands;
  }
}

export const journalArea = defineArea({
  name: 'journal',
  models: [journalModels],
  schemas: [schemas],
  build({ db, config, events, need }) {
    const log = new JournalLog(journalModels(db), db.ids, db.generation);
    const categories = new CategoryCommands(db);
    const journals = new JournalCommands(db, log, events);
    return {
      categories,
      journals,
      entries: new EntryCommands(db, log, journals, categories),
      // An event's journal names its alarm (keyword, address) when the service raised it (AL1's id).
      exports: new JournalExport(db, log, journals, (organizationId, eventId) =>
        need('alarms').alarms.summary(organizationId, eventId),
      ),
      timeZone: config.journalTimeZone,
    };
  },
  operations: (parts) => journalOperations(parts),
});
