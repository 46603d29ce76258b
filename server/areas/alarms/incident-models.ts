// One incident, one alarm (docs/inputs.md "One incident, one alarm"): the claim that makes the first
// document of an incident raise its alarm and every later one — the fax after the e-mail, on any process —
// merge into it.
//   alarm_incidents  "<organizationId>:<incident key>": the alarm the incident raised, and when;
//                    "<organizationId>:<incident key>><alarmId>": the alarm raised after that one was over
// A claim is taken by a unique insert (both engines decide it atomically); so is the follower of an
// alarm that ended, is older than the merge window, or was never stored — and the follower then names
// its alarm in the incident's claim. The hourly sweep removes old ones.
import { Schema, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';

export interface IncidentDoc {
  _id: string;
  organizationId: number;
  alarmId: number;
  at: Date;
}

export interface IncidentModels {
  Incident: Model<IncidentDoc>;
}

export const incidentModels = defineModels<IncidentModels>((conn) => {
  const incident = new Schema<IncidentDoc>(
    {
      _id: String,
      organizationId: { type: Number, required: true },
      alarmId: { type: Number, required: true },
      at: { type: Date, required: true },
    },
    { versionKey: false },
  );
  incident.index({ at: 1 });
  return { Incident: conn.model<IncidentDoc>('AlarmIncident', incident, 'alarm_incidents') };
});
