// Monitors. A monitor's configuration and its data are version chains (server/db/chain.ts); the
// monitor document holds what never changes (its organization) and a copy of the configuration at
// some revision, which readers check against the chain with one exact lookup. Open property maps are
// kept as JSON text: their keys are the client's (dots, leading dollars) and FerretDB refuses those.
import { Schema, type Connection, type Model } from 'mongoose';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';

export interface MonitorDoc {
  /** The monitor's ID as a string: the only lookup FerretDB answers from an index. */
  _id: string;
  organizationID: number;
  /** The configuration revision `config` was copied from (a copy may lag behind the chain). */
  revision: number;
  /** JSON of MonitorConfig at `revision`. */
  config: string;
  createdAt: Date;
}

export interface MonitorModels {
  Monitor: Model<MonitorDoc>;
  /** An organization's monitor IDs ("monitors:<organization ID>"), so M1 reads by exact lookups. */
  MonitorIndex: Model<IdIndexDoc>;
}

/** The monitor area's collections (server/db/models.ts). */
export const monitorModels = defineModels((conn: Connection): MonitorModels => {
  const monitor = new Schema<MonitorDoc>(
    {
      _id: String,
      organizationID: { type: Number, required: true },
      revision: { type: Number, required: true },
      config: { type: String, required: true },
      createdAt: { type: Date, required: true },
    },
    { versionKey: false },
  );
  monitor.index({ organizationID: 1 });
  return {
    Monitor: conn.model<MonitorDoc>('Monitor', monitor, 'monitors'),
    MonitorIndex: idIndexModel(conn, 'MonitorIndex', 'monitor_index'),
  };
});
