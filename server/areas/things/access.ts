// Loading an entity for an actor: another organization's entity is 404 (existence does not leak), an
// entity of the actor's organization without the needed right is 403.
import { forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canReadRecords, canWriteRecords, roleIn } from '../../identity/policy.js';
import type { EntityDoc, ThingsModels } from './models.js';

/** What the actor needs: read records, write records, or change the entity and its rules. */
export type Right = 'read' | 'write' | 'configure';

const DENIED: Record<Right, string> = {
  read: 'Not allowed to read the records of this entity',
  write: 'Not allowed to write the records of this entity',
  configure: "Changing entities and rules needs an organization admin or the organization's API key",
};

/** Throws 404 (naming `what` was looked up) or 403 unless the actor has `right` on the entity. */
export function authorize(actor: Actor, entity: EntityDoc, right: Right, what = 'Entity'): EntityDoc {
  if (roleIn(actor, entity.organizationID) === null) throw notFound(`${what} not found`);
  const allowed =
    right === 'read'
      ? canReadRecords(actor, entity)
      : right === 'write'
        ? canWriteRecords(actor, entity)
        : canConfigure(actor, entity.organizationID);
  if (!allowed) throw forbidden(DENIED[right]);
  return entity;
}

/** The entity by ID, when the actor has `right` on it. */
export async function loadEntity(models: ThingsModels, actor: Actor, id: string, right: Right): Promise<EntityDoc> {
  const entity = await models.ThingEntity.findById(id).lean();
  if (!entity) throw notFound('Entity not found');
  return authorize(actor, entity, right);
}
