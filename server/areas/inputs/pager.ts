// The pager door IN3 (docs/inputs.md "Pager"): what a radio decoder (BOSWatch's HTTP plugin, or any that
// posts JSON) hears on the pager network. A POCSAG RIC (with its sub-RIC) or a ZVEI code that a pager input
// knows raises that code's alarm in the input's organization — one incident per code while it runs, so
// the repeats of a telegram ring nobody twice; an FMS vehicle status 1–9 of a known vehicle goes to the
// organization's room and its walls (`vehicle:status`), stored first (the organization's document of
// input_vehicle_statuses) for the walls that connect later (vehicles.ts). Codes are found by exact
// lookups (commands.ts, byCode): the decoder posts every telegram it hears, most of them for nobody here.
import type { Logger } from 'pino';
import type { IN3Input, PagerSettingsInput } from '../../../schemas/inputs.js';
import type { VehicleStatusEvent } from '../../../common/hub-protocol.js';
import type { Incidents } from '../alarms/incidents.js';
import type { TemplateCommands } from '../templates/commands.js';
import { pagerKey, type InputCommands } from './commands.js';
import type { InputDocuments } from './documents.js';
import type { InputDoc } from './models.js';

export interface PagerParts {
  commands: InputCommands;
  documents: InputDocuments;
  incidents: () => Incidents;
  templates: () => Pick<TemplateCommands, 'forAlarm'>;
  vehicleStatus: (event: VehicleStatusEvent) => void;
  log: Pick<Logger, 'info'>;
}

// Sub-RICs are written a–d by some decoders and 1–4 by others.
const SUBRIC: Record<string, string> = { a: '1', b: '2', c: '3', d: '4', 1: '1', 2: '2', 3: '3', 4: '4' };

/** IN3's counts on this process, for /metrics. */
export interface PagerCounts {
  received: number;
  alarms: number;
  statuses: number;
}

/** Takes in pager telegrams. */
export class PagerDoor {
  readonly counts: PagerCounts = { received: 0, alarms: 0, statuses: 0 };

  constructor(private readonly parts: PagerParts) {}

  async receive(telegram: IN3Input): Promise<{ accepted: true }> {
    this.counts.received++;
    const key = pagerKey(telegram);
    const ids = await this.parts.commands.byCode.ids(key);
    const inputs = await Promise.all(ids.map((id) => this.parts.commands.models.Input.findById(id).lean()));
    for (const input of inputs) {
      if (!input || input.kind !== 'pager' || !input.active) continue;
      if (telegram.type === 'fms') await this.status(input, telegram);
      else await this.alarm(input, telegram, key);
    }
    return { accepted: true };
  }

  private async status(input: InputDoc, telegram: IN3Input): Promise<void> {
    const status = Number.parseInt(telegram.status ?? '', 16);
    const vehicle = (input.settings as PagerSettingsInput).vehicles?.find(
      (v) => v.fms.toUpperCase() === telegram.fms!.toUpperCase(),
    );
    if (!vehicle || !(status >= 1 && status <= 9)) return;
    this.counts.statuses++;
    const fms = vehicle.fms.toUpperCase();
    const at = new Date();
    // This vehicle's own document: a status of another vehicle stored at the same time stays.
    await this.parts.commands.models.VehicleStatuses.replaceOne(
      { _id: `${input.organizationId}:${fms}` },
      { organizationId: input.organizationId, fms, name: vehicle.name, status, at },
      { upsert: true },
    );
    this.parts.vehicleStatus({
      organizationId: input.organizationId,
      fms,
      name: vehicle.name,
      status,
      at: at.toISOString(),
    });
  }

  private async alarm(input: InputDoc, telegram: IN3Input, key: string): Promise<void> {
    const subric = telegram.subric ? SUBRIC[telegram.subric] : undefined;
    const code = (input.settings as PagerSettingsInput).codes?.find(
      (c) => pagerKey(c) === key && (!c.subric || !subric || SUBRIC[c.subric] === subric),
    );
    if (!code) return;
    const from = telegram.type === 'zvei' ? `ZVEI ${telegram.zvei}` : `RIC ${telegram.ric}${telegram.subric ?? ''}`;
    const template = code.templateId
      ? await this.parts.templates().forAlarm(input.organizationId, code.templateId)
      : null;
    const event = template?.event ?? code.event;
    if (!event) {
      await this.parts.documents.record(input, {
        from,
        type: telegram.type,
        outcome: 'ignored',
        reason: `its code names alarm template ${code.templateId}, which the organization no longer has`,
        text: telegram.message ?? '',
      });
      return;
    }
    const monitorIds = template?.monitorIds ?? input.monitorIds;
    const channels = template?.channels ?? input.channels;
    const { alarmId, outcome } = await this.parts.incidents().raise(
      input.organizationId,
      {
        event,
        message: code.message || template?.message || telegram.message || '',
        ...(template?.units.length ? { units: template.units } : {}),
        ...(monitorIds ? { monitorIds, skipUnknownMonitors: true } : {}),
        ...(channels ? { channels } : {}),
        templateId: template ? Number(template._id) : null,
        dispatchNumber: null,
        keyword: event,
        incident: `pager:${input._id}:${key}${code.subric ? `:${SUBRIC[code.subric]}` : ''}`,
      },
      { kind: 'pager', inputId: Number(input._id), name: input.name, at: new Date() },
    );
    if (outcome === 'raised') this.counts.alarms++;
    await this.parts.documents.record(input, {
      from,
      type: telegram.type,
      outcome,
      alarmId,
      text: telegram.message ?? '',
    });
    this.parts.log.info({ inputId: input._id, from, alarmId, outcome }, 'pager telegram');
  }
}
