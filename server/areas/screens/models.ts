// Screens (docs/hub.md "The screen fleet"): paired display clients, their pairings, the claims that make health
// events happen once across processes, and running test alarms. Every lookup on a hot path is by
// string _id; a monitor's screens are listed by a field (small documents, declared index for MongoDB).
import { Schema, type Connection, type Model } from 'mongoose';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';

export interface ScreenDoc {
  _id: string;
  monitorId: number;
  organizationId: number;
  name: string;
  createdAt: Date;
  /** The screen token (its stored hash and number) once the screen fetched it. */
  credential: string | null;
  tokenId: number | null;
  online: boolean;
  /** Counts the screen's online periods: each change of state is claimed once per period. */
  episode: number;
  lastSeen: Date | null;
  versionShown: number | null;
  pageVersion: string | null;
  userAgent: string | null;
}

/** A pairing waiting for an admin ("p:<id>") and the lookup of its code ("c:<CODE>"). */
export interface PairingDoc {
  _id: string;
  pairingId: string;
  code: string;
  secretHash: string;
  expiresAt: Date;
  screenId: number | null;
}

export interface ClaimDoc {
  _id: string;
  at: Date;
}

/** The claim F5 writes before it reads the screen it removes (commands.ts, pairing.ts). */
export const removedMark = (screenId: number) => `removed:${screenId}`;

export interface TestAlarmDoc {
  /** The monitor's ID as a string: one test alarm per monitor at a time. */
  _id: string;
  message: string;
  endsAt: Date;
}

export interface ScreenModels {
  Screen: Model<ScreenDoc>;
  Pairing: Model<PairingDoc>;
  ScreenClaim: Model<ClaimDoc>;
  TestAlarm: Model<TestAlarmDoc>;
  /** A monitor's screen IDs ("screens:<monitor ID>"), so F4 reads by exact lookups. */
  ScreenIndex: Model<IdIndexDoc>;
}

const opts = { versionKey: false } as const;

/** The screens area's collections (server/db/models.ts). */
export const screenModels = defineModels((conn: Connection): ScreenModels => {
  const screen = new Schema<ScreenDoc>(
    {
      _id: String,
      monitorId: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      name: { type: String, required: true },
      createdAt: { type: Date, required: true },
      credential: { type: String, default: null },
      tokenId: { type: Number, default: null },
      online: { type: Boolean, default: false },
      episode: { type: Number, default: 0 },
      lastSeen: { type: Date, default: null },
      versionShown: { type: Number, default: null },
      pageVersion: { type: String, default: null },
      userAgent: { type: String, default: null },
    },
    opts,
  );
  screen.index({ monitorId: 1 });
  screen.index({ online: 1, lastSeen: 1 });
  return {
    Screen: conn.model<ScreenDoc>('Screen', screen, 'screens'),
    ScreenIndex: idIndexModel(conn, 'ScreenIndex', 'screen_index'),
    Pairing: conn.model<PairingDoc>(
      'ScreenPairing',
      new Schema<PairingDoc>(
        {
          _id: String,
          pairingId: { type: String, required: true },
          code: { type: String, required: true },
          secretHash: { type: String, default: '' },
          expiresAt: { type: Date, required: true },
          screenId: { type: Number, default: null },
        },
        opts,
      ),
      'screen_pairings',
    ),
    ScreenClaim: conn.model<ClaimDoc>(
      'ScreenClaim',
      new Schema<ClaimDoc>({ _id: String, at: { type: Date, required: true } }, opts),
      'screen_claims',
    ),
    TestAlarm: conn.model<TestAlarmDoc>(
      'TestAlarm',
      new Schema<TestAlarmDoc>(
        {
          _id: String,
          message: { type: String, default: '' },
          endsAt: { type: Date, required: true },
        },
        opts,
      ),
      'test_alarms',
    ),
  };
});
