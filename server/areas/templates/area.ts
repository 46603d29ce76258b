// Alarm templates (TP1–TP3; docs/api.md "Alarm templates (TP1–TP3)"): what an alarm raised by a call PIN,
// a pager code or a things rule shows and where it goes. A plain area: its own collections read by
// exact _id, its commands, its operations.
import * as schemas from '../../../schemas/templates.js';
import { defineArea } from '../area.js';
import { TemplateCommands } from './commands.js';
import { templateModels } from './models.js';
import { templateOperations } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    templates: TemplateCommands;
  }
}

export const templatesArea = defineArea({
  name: 'templates',
  models: [templateModels],
  schemas: [schemas],
  build: ({ db }) => new TemplateCommands(db),
  operations: (templates) => templateOperations(templates),
});
