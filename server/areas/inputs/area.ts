// Alarm inputs (IP1–IP6, IN3; docs/inputs.md): what a dispatch centre sends — e-mail, fax, PDF, pager
// telegrams — turned into alarms, one per incident. An area of its own: its collections read by exact
// _id, its commands, the documents' conversion and profiles, the IMAP watchers, the pager door and the
// vehicles' statuses it keeps for the walls (the hub's VehiclesPort).
import * as schemas from '../../../schemas/inputs.js';
import type { PagerSettingsInput } from '../../../schemas/inputs.js';
import { defineArea } from '../area.js';
import { openKeyring, type Keyring } from '../els-cobra/secrets.js';
import { InputCommands } from './commands.js';
import { InputDocuments } from './documents.js';
import { InputIntake } from './intake.js';
import { MailWatchers } from './imap.js';
import { inputModels } from './models.js';
import { PagerDoor } from './pager.js';
import { inputOperations } from './routes.js';
import { VehicleStatusBoard } from './vehicles.js';

/** What the inputs area offers the others. */
export interface InputParts {
  commands: InputCommands;
  documents: InputDocuments;
  intake: InputIntake;
  pager: PagerDoor;
  watchers: MailWatchers;
  /** The vehicles' latest statuses, for walls (`vehicles:watch`). */
  vehicles: VehicleStatusBoard;
  checkToken(presented: string | undefined): void;
}

declare module '../area.js' {
  interface AreaParts {
    inputs: InputParts;
  }
}

export const inputsArea = defineArea({
  name: 'inputs',
  models: [inputModels],
  schemas: [schemas],
  build({ db, config, events, log, metrics, scheduler, need }) {
    let keyring: Keyring | undefined;
    const models = inputModels(db);
    const documents = new InputDocuments(db, models);
    const commands = new InputCommands(
      db,
      () => (keyring ??= openKeyring(config).keyring),
      config.inputs.imapPorts,
      (doc) => documents.removeAll(doc),
    );
    const incidents = () => need('alarms').incidents;
    const toolMs = config.inputs.toolTimeoutMs;
    const intake = new InputIntake(db, documents, incidents, log, { timeoutMs: toolMs, documentMs: 2 * toolMs });
    const pager = new PagerDoor({
      commands,
      documents,
      incidents,
      templates: () => need('templates'),
      vehicleStatus: (event) => events.vehicleStatus(event),
      log,
    });
    const vehicles = new VehicleStatusBoard(
      models,
      async (caller, monitorId) => ({
        organizationID: (await need('monitor').monitors.readable(caller, monitorId)).organizationID,
      }),
      async (organizationId) =>
        (await commands.byOrganization.load(organizationId, (id) => models.Input.findById(id).lean()))
          .filter((d) => d.kind === 'pager' && d.organizationId === organizationId)
          .flatMap((d) => ((d.settings as PagerSettingsInput).vehicles ?? []).map((v) => v.fms.toUpperCase())),
    );
    const watchers = new MailWatchers({ db, commands, intake, log, pollMs: config.inputs.imapPollMs });
    scheduler.every('input-mail-watchers', config.inputs.imapReconcileMs, () => watchers.reconcile());
    metrics.counter(
      'alarmhub_input_pager_received_total',
      'Pager telegrams IN3 took on this process',
      () => pager.counts.received,
    );
    metrics.counter(
      'alarmhub_input_pager_alarms_total',
      'Alarms raised by pager codes on this process (a repeat of a running one merges and is not counted)',
      () => pager.counts.alarms,
    );
    metrics.counter(
      'alarmhub_input_mails_total',
      'E-mails the IMAP watchers of this process handled',
      () => watchers.handled,
    );
    metrics.gauge('alarmhub_input_mail_watchers', 'IMAP inputs this process watches now', () => watchers.size);
    return {
      commands,
      documents,
      intake,
      pager,
      watchers,
      vehicles,
      checkToken: (presented) => need('alarms').inbound.checkToken(presented),
    };
  },
  // The watchers log out before the database closes.
  close: async ({ watchers, intake }) => {
    await watchers.stop();
    await intake.profiles.close();
  },
  operations: (parts) => inputOperations(parts),
});
