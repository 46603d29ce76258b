// The alarm templates' collections (docs/storage.md "Who owns which collection"): a template under its
// ID, and each organization's template IDs in one index document (docs/storage.md "Lists by exact
// lookups").
import { Schema, type Model } from 'mongoose';
import type { AlarmChannel } from '../../../schemas/alarms.js';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';

export interface TemplateDoc {
  _id: string;
  organizationId: number;
  name: string;
  event: string;
  message: string;
  units: string[];
  /** null: every channel. */
  channels: AlarmChannel[] | null;
  /** null: every monitor of the organization. */
  monitorIds: number[] | null;
  updatedAt: Date;
}

export interface TemplateModels {
  AlarmTemplate: Model<TemplateDoc>;
  AlarmTemplateIndex: Model<IdIndexDoc>;
}

export const templateModels = defineModels<TemplateModels>((conn) => {
  const template = new Schema<TemplateDoc>(
    {
      _id: String,
      organizationId: { type: Number, required: true },
      name: { type: String, required: true },
      event: { type: String, required: true },
      message: { type: String, default: '' },
      units: { type: [String], default: [] },
      channels: { type: [String], default: null },
      monitorIds: { type: [Number], default: null },
      updatedAt: { type: Date, required: true },
    },
    { versionKey: false },
  );
  return {
    AlarmTemplate: conn.model<TemplateDoc>('AlarmTemplate', template, 'alarm_templates'),
    AlarmTemplateIndex: idIndexModel(conn, 'AlarmTemplateIndex', 'alarm_template_index'),
  };
});
