// The integration's storage: one small document per organization and resource, read and written by
// its exact string _id. Public fields are JSON text; secret fields are AES-256-GCM values (secrets.ts).
//   els_cobra_settings     "<orgId>:certificate" | "<orgId>:keywords" | "<orgId>:login"
//   els_cobra_credentials  "<orgId>:<serviceName>", listed by organizationId (E3 without serviceName)
// Certificates (the largest documents) sit where no query scans: only exact _id lookups read them.
import { Schema, type Connection, type Model } from 'mongoose';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';
import type { EncryptedSecret } from './secrets.js';

export interface IntegrationDoc {
  _id: string;
  organizationId: number;
  /** The public fields as JSON text. */
  data: string;
  /** The secret fields, encrypted, by field name. */
  secrets: Record<string, EncryptedSecret>;
  updatedAt: Date;
}

export interface ElsCobraModels {
  ElsCobraSetting: Model<IntegrationDoc>;
  ElsCobraCredential: Model<IntegrationDoc>;
  /** An organization's credential IDs ("credentials:<organization ID>"), so E3's list reads by exact lookups. */
  ElsCobraCredentialIndex: Model<IdIndexDoc>;
}

function integrationSchema(): Schema<IntegrationDoc> {
  const schema = new Schema<IntegrationDoc>(
    {
      _id: String,
      organizationId: { type: Number, required: true },
      data: { type: String, required: true },
      secrets: { type: Schema.Types.Mixed, default: {} },
      updatedAt: { type: Date, required: true },
    },
    { versionKey: false, minimize: false },
  );
  return schema;
}

/** The els-cobra area's collections (server/db/models.ts). */
export const elsCobraModels = defineModels((conn: Connection): ElsCobraModels => {
  const credentials = integrationSchema();
  credentials.index({ organizationId: 1, _id: 1 });
  return {
    ElsCobraSetting: conn.model<IntegrationDoc>('ElsCobraSetting', integrationSchema(), 'els_cobra_settings'),
    ElsCobraCredential: conn.model<IntegrationDoc>('ElsCobraCredential', credentials, 'els_cobra_credentials'),
    ElsCobraCredentialIndex: idIndexModel(conn, 'ElsCobraCredentialIndex', 'els_cobra_credential_index'),
  };
});
