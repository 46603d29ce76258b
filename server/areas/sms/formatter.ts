// S7/S8: the text formatter an organization's alarm sms are written with.
import { FORMATTER_NAMES, type FormatterName } from '../../../schemas/sms.js';
import type { Database } from '../../db/database.js';
import { forbidden } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import { setById } from '../channels/upsert.js';
import { smsModels } from './models.js';

/** Used until an organization sets another. */
export const DEFAULT_FORMATTER: FormatterName = FORMATTER_NAMES[0];

export interface TextFormatterView {
  organizationID: number;
  textFormatterName: FormatterName;
}

/** The formatter choice per organization. */
export class SmsFormatters {
  constructor(private readonly db: Database) {}

  /** S7: members read it; the default until one is set. */
  async get(actor: Actor, organizationId: number): Promise<TextFormatterView> {
    if (!canRead(actor, organizationId)) throw forbidden();
    const doc = await smsModels(this.db).SmsFormatter.findById(String(organizationId)).lean();
    return { organizationID: organizationId, textFormatterName: doc?.textFormatterName ?? DEFAULT_FORMATTER };
  }

  /** The formatter an organization's alarm texts are built with (docs/alarms.md "Delivered"). */
  async nameOf(organizationId: number): Promise<FormatterName> {
    return (
      (await smsModels(this.db).SmsFormatter.findById(String(organizationId)).lean())?.textFormatterName ??
      DEFAULT_FORMATTER
    );
  }

  /** S8: admins and the API key choose one; the last write wins. */
  async set(actor: Actor, input: TextFormatterView): Promise<TextFormatterView> {
    if (!canConfigure(actor, input.organizationID))
      throw forbidden("The text formatter is set by organization admins and the organization's API key");
    await setById(smsModels(this.db).SmsFormatter, String(input.organizationID), {
      textFormatterName: input.textFormatterName,
      updatedAt: new Date(),
    });
    return { organizationID: input.organizationID, textFormatterName: input.textFormatterName };
  }
}
