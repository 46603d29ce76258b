// Monitors and their data versions. Open property maps are stored as JSON text: their keys are the
// client's (dots, leading dollars) and FerretDB refuses such field names.
import { Schema, type Connection, type Model } from 'mongoose';

export interface MonitorDoc {
  _id: number;
  organizationID: number;
  name: string;
  configuration: string;
  configurationSplitScreen: string;
  configurationStandby: string;
  standbyDelay: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One version of a monitor's data; `_id` is "<monitorId>:<version>", so every version has one writer. */
export interface MonitorStateDoc {
  _id: string;
  monitorId: number;
  version: number;
  /** Random per version; `base` is the nonce of the version this one was built on ('' for none). */
  nonce: string;
  base: string;
  data: string;
  write: string;
  at: Date;
}

export interface MonitorModels {
  Monitor: Model<MonitorDoc>;
  MonitorState: Model<MonitorStateDoc>;
}

/** Registers the monitor models on a connection. */
export function monitorModels(conn: Connection): MonitorModels {
  const monitor = new Schema<MonitorDoc>({
    _id: Number,
    organizationID: { type: Number, required: true },
    name: { type: String, required: true },
    configuration: { type: String, required: true },
    configurationSplitScreen: { type: String, required: true },
    configurationStandby: { type: String, required: true },
    standbyDelay: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  }, { versionKey: false });
  monitor.index({ organizationID: 1, _id: 1 });

  const state = new Schema<MonitorStateDoc>({
    _id: String,
    monitorId: { type: Number, required: true },
    version: { type: Number, required: true },
    nonce: { type: String, required: true },
    base: { type: String, default: '' },
    data: { type: String, required: true },
    write: { type: String, required: true },
    at: { type: Date, required: true },
  }, { versionKey: false });
  state.index({ monitorId: 1, version: 1 }, { unique: true });

  return {
    Monitor: conn.model<MonitorDoc>('Monitor', monitor, 'monitors'),
    MonitorState: conn.model<MonitorStateDoc>('MonitorState', state, 'monitor_states'),
  };
}
