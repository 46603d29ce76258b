// The alarm inputs' collections (docs/storage.md "Who owns which collection"; docs/inputs.md). Every
// lookup is an exact string-_id read:
//   inputs              an input under its ID (its IMAP password encrypted, never in `settings`)
//   input_index         each organization's input IDs ("<organizationId>"), each input's newest 50
//                       documents ("documents:<inputId>"), each pager code's inputs ("code:<code>")
//   input_documents     a received document under its ID: what it said and what became of it (IP6)
//   input_mail_claims   "<inputId>:<uidvalidity>:<uid>": the process that handles one e-mail, and whether it did
//   input_status        "<inputId>:received" (when its latest document came) and "<inputId>:error" (its
//                       latest problem, or null): written by watchers and intake, never by IP3, each
//                       document whole (status.ts)
//   input_vehicle_statuses  a vehicle's latest FMS status ("<organizationId>:<FMS>"): one document per
//                       vehicle, so two statuses at once never overwrite each other (the embedded engine's
//                       updates are read-modify-write); a wall reads its organization's by their codes
import { Schema, type Model } from 'mongoose';
import type { AlarmChannel } from '../../../schemas/alarms.js';
import type { DocumentOutcome, InputKind, ProfileInput } from '../../../schemas/inputs.js';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';
import type { EncryptedSecret } from '../els-cobra/secrets.js';

export interface InputDoc {
  _id: string;
  organizationId: number;
  name: string;
  kind: InputKind;
  /** As set, without the password. */
  settings: Record<string, unknown>;
  /** The IMAP password, encrypted (els-cobra/secrets.ts) for "input:<id>:password". */
  secret: EncryptedSecret | null;
  profile: ProfileInput | null;
  monitorIds: number[] | null;
  channels: AlarmChannel[] | null;
  active: boolean;
  /** Written by versions before input_status (InputStatusDoc); still read where no status is stored. */
  lastReceivedAt?: Date | null;
  lastError?: string | null;
  updatedAt: Date;
}

/**
 * An input's status, apart from the input: on the embedded engine an update is read-modify-write, so a
 * watcher's note written into the input could put back an admin's IP3 change that landed meanwhile (an
 * old password, senders, active). Under "<inputId>:received" (`at`) or "<inputId>:error" (`error`).
 */
export interface InputStatusDoc {
  _id: string;
  at: Date;
  error?: string | null;
}

export interface InputDocumentDoc {
  _id: string;
  inputId: number;
  organizationId: number;
  receivedAt: Date;
  from: string;
  type: string;
  outcome: DocumentOutcome;
  alarmId: number | null;
  reason: string | null;
  text: string;
}

export interface MailClaimDoc {
  _id: string;
  inputId: number;
  /** Who handles it, until when (a claim past it is taken over: its process died). */
  by: string;
  until: Date;
  done: boolean;
}

/** A vehicle's latest FMS status (IN3), under "<organizationId>:<FMS>", as a wall that connects later is told it. */
export interface VehicleStatusDoc {
  _id: string;
  organizationId: number;
  /** Upper case. */
  fms: string;
  name: string;
  status: number;
  at: Date;
}

export interface InputModels {
  Input: Model<InputDoc>;
  InputIndex: Model<IdIndexDoc>;
  InputDocument: Model<InputDocumentDoc>;
  MailClaim: Model<MailClaimDoc>;
  InputStatus: Model<InputStatusDoc>;
  VehicleStatuses: Model<VehicleStatusDoc>;
}

const opts = { versionKey: false, minimize: false } as const;

export const inputModels = defineModels<InputModels>((conn) => {
  const input = new Schema<InputDoc>(
    {
      _id: String,
      organizationId: { type: Number, required: true },
      name: { type: String, required: true },
      kind: { type: String, required: true },
      settings: { type: Schema.Types.Mixed, default: {} },
      secret: { type: Schema.Types.Mixed, default: null },
      profile: { type: Schema.Types.Mixed, default: null },
      monitorIds: { type: [Number], default: null },
      channels: { type: [String], default: null },
      active: { type: Boolean, required: true },
      lastReceivedAt: { type: Date, default: null },
      lastError: { type: String, default: null },
      updatedAt: { type: Date, required: true },
    },
    opts,
  );
  const document = new Schema<InputDocumentDoc>(
    {
      _id: String,
      inputId: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      receivedAt: { type: Date, required: true },
      from: { type: String, default: '' },
      type: { type: String, default: '' },
      outcome: { type: String, required: true },
      alarmId: { type: Number, default: null },
      reason: { type: String, default: null },
      text: { type: String, default: '' },
    },
    opts,
  );
  const claim = new Schema<MailClaimDoc>(
    {
      _id: String,
      inputId: { type: Number, required: true },
      by: { type: String, required: true },
      until: { type: Date, required: true },
      done: { type: Boolean, default: false },
    },
    opts,
  );
  claim.index({ inputId: 1 });
  const vehicles = new Schema<VehicleStatusDoc>(
    { _id: String, organizationId: Number, fms: String, name: String, status: Number, at: Date },
    opts,
  );
  return {
    Input: conn.model<InputDoc>('AlarmInput', input, 'inputs'),
    InputIndex: idIndexModel(conn, 'AlarmInputIndex', 'input_index'),
    InputDocument: conn.model<InputDocumentDoc>('AlarmInputDocument', document, 'input_documents'),
    MailClaim: conn.model<MailClaimDoc>('AlarmInputMailClaim', claim, 'input_mail_claims'),
    InputStatus: conn.model<InputStatusDoc>(
      'AlarmInputStatus',
      new Schema<InputStatusDoc>({ _id: String, at: { type: Date, required: true }, error: String }, opts),
      'input_status',
    ),
    VehicleStatuses: conn.model<VehicleStatusDoc>('AlarmInputVehicleStatus', vehicles, 'input_vehicle_statuses'),
  };
});
