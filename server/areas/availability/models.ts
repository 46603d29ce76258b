// Availability's collection (docs/storage.md "Who owns which collection"): one document per member and
// organization, under `"<organizationId>:<userId>"`, so every read is an exact _id lookup.
import { Schema, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';

export interface AvailabilityDoc {
  _id: string;
  organizationId: number;
  userId: number;
  available: boolean;
  /** When it stops holding; null: until changed. Past: it counts as not said (checked on read). */
  until: Date | null;
  note: string | null;
  changedAt: Date;
}

export interface AvailabilityModels {
  Availability: Model<AvailabilityDoc>;
}

export const availabilityKey = (organizationId: number, userId: number) => `${organizationId}:${userId}`;

export const availabilityModels = defineModels<AvailabilityModels>((conn) => ({
  Availability: conn.model<AvailabilityDoc>(
    'Availability',
    new Schema<AvailabilityDoc>(
      {
        _id: String,
        organizationId: { type: Number, required: true },
        userId: { type: Number, required: true },
        available: { type: Boolean, required: true },
        until: { type: Date, default: null },
        note: { type: String, default: null },
        changedAt: { type: Date, required: true },
      },
      { versionKey: false },
    ),
    'availability',
  ),
}));
