// Storage of the app area: devices, the confirmation tokens of pushes and their answers, alarm feedback,
// and the installation's Web Push (VAPID) key pair.
import { Schema, type Connection, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';
import type { EncryptedSecret } from '../els-cobra/secrets.js';
import { date, flag, int, intOrNull, opts, rev, text } from '../channels/schema-types.js';

/** The push path of a device: FCM, APNs, or Web Push (docs/members-app.md "Web Push"). */
export type Platform = 'android' | 'ios' | 'web';

/** A device: _id is its ID as text. */
export interface DeviceDoc {
  _id: string;
  ownerID: number;
  /** The organization whose admin or key registered it; null (or absent: older ones): the owner himself (channels/owned.ts). */
  organizationID?: number | null;
  name: string;
  /** The name as compared for uniqueness (trimmed, lower case); unique per owner through an index. */
  nameKey: string;
  os: string;
  platform: Platform;
  pushToken: string;
  pushTokenDevelopment: boolean;
  active: boolean;
  /** Revision (server/db/revisions.ts): a replacement (A4) and a deactivation never overwrite each other. */
  rev?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A push's confirmation token: _id is the SHA-256 of the token, which itself is never stored. */
export interface PushConfirmationDoc {
  _id: string;
  deviceId: number;
  ownerID: number;
  organizationID: number | null;
  /** The alarm the push announced (absent for a test push). */
  alarmId?: number | null;
  createdAt: Date;
  expiresAt: Date;
  deliveredAt: Date | null;
}

/** The one answer to a push: its _id is the confirmation's, so only the first insert wins. */
export interface PushAnswerDoc {
  _id: string;
  answer: 'yes' | 'no';
  distance: number | null;
  duration: number | null;
  answeredAt: Date;
}

/** A device's feedback to an alarm: _id "<organizationID>:<alarmID>:<deviceID>", a later one replaces it. */
export interface AlarmFeedbackDoc {
  _id: string;
  organizationID: number;
  alarmID: number;
  deviceID: number;
  ownerID: number;
  response: boolean | null;
  distance: number | null;
  duration: number | null;
  updatedAt: Date;
}

/**
 * The installation's VAPID key pair: one document, _id "vapid", inserted by the first process that needs it
 * (the unique _id decides between racing processes); the private key encrypted with the secrets key.
 */
export interface VapidKeyDoc {
  _id: string;
  publicKey: string;
  privateKey: EncryptedSecret;
  createdAt: Date;
}

export interface AppModels {
  Device: Model<DeviceDoc>;
  VapidKey: Model<VapidKeyDoc>;
  PushConfirmation: Model<PushConfirmationDoc>;
  PushAnswer: Model<PushAnswerDoc>;
  AlarmFeedback: Model<AlarmFeedbackDoc>;
}

/** The app area's collections (server/db/models.ts). */
export const appModels = defineModels((conn: Connection): AppModels => {
  const device = new Schema<DeviceDoc>(
    {
      _id: String,
      ownerID: int,
      organizationID: { type: Number, default: null },
      name: text,
      nameKey: text,
      os: text,
      platform: { type: String, required: true, enum: ['android', 'ios', 'web'] },
      pushToken: text,
      pushTokenDevelopment: flag,
      active: flag,
      rev,
      createdAt: date,
      updatedAt: date,
    },
    opts,
  );
  // Both engines enforce it atomically: of two racing creates (or renames) with one name, one fails.
  device.index({ ownerID: 1, nameKey: 1 }, { unique: true });

  const confirmation = new Schema<PushConfirmationDoc>(
    {
      _id: String,
      deviceId: int,
      ownerID: int,
      organizationID: intOrNull,
      alarmId: { type: Number, default: null },
      createdAt: date,
      expiresAt: date,
      deliveredAt: { type: Date, default: null },
    },
    opts,
  );
  confirmation.index({ expiresAt: 1 });

  const answer = new Schema<PushAnswerDoc>(
    {
      _id: String,
      answer: { type: String, required: true, enum: ['yes', 'no'] },
      distance: intOrNull,
      duration: intOrNull,
      answeredAt: date,
    },
    opts,
  );

  const feedback = new Schema<AlarmFeedbackDoc>(
    {
      _id: String,
      organizationID: int,
      alarmID: int,
      deviceID: int,
      ownerID: int,
      response: { type: Boolean, default: null },
      distance: intOrNull,
      duration: intOrNull,
      updatedAt: date,
    },
    opts,
  );
  feedback.index({ organizationID: 1, alarmID: 1 });

  const vapid = new Schema<VapidKeyDoc>(
    { _id: String, publicKey: text, privateKey: { type: Schema.Types.Mixed, required: true }, createdAt: date },
    opts,
  );

  return {
    Device: conn.model<DeviceDoc>('Device', device, 'app_devices'),
    VapidKey: conn.model<VapidKeyDoc>('VapidKey', vapid, 'app_vapid_keys'),
    PushConfirmation: conn.model<PushConfirmationDoc>('PushConfirmation', confirmation, 'app_push_confirmations'),
    PushAnswer: conn.model<PushAnswerDoc>('PushAnswer', answer, 'app_push_answers'),
    AlarmFeedback: conn.model<AlarmFeedbackDoc>('AlarmFeedback', feedback, 'app_alarm_feedback'),
  };
});
