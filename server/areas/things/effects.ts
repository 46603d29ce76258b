// What comes before and after every record command's write (T6, T7, T9). Before: the positions the
// records will have are indexed (positions.ts), and a failure fails the command before it wrote
// anything. After: the organization's room hears `things:changed`, deleted and moved records leave their
// old cells, screens showing water sources in the touched cells are told, and the entity's rules run (rule-engine.ts); the records are written
// already, so a failure there is logged, never the request's.
import type { Logger } from 'pino';
import type { OrganizationEvents, WaterEvents } from '../../hub/events.js';
import type { EntityDoc } from './models.js';
import type { Placement, PositionIndex } from './positions.js';
import type { ValueMap } from './presenter.js';
import type { ValueChanges } from './values.js';
import type { RecordChange, RuleRunner } from './rule-engine.js';

/** A `water:changed` names at most this many cells; beyond, it says "anywhere" (a county's import). */
const MAX_CELLS_NAMED = 200;

/** The values an update writes: those of `values` whose fields `changes` names. */
export function written(values: ValueMap, changes: ValueChanges): ValueMap {
  return Object.fromEntries([...changes.keys()].filter((id) => values[id]).map((id) => [id, values[id]]));
}

export class RecordEffects {
  constructor(
    private readonly positions: PositionIndex,
    private readonly rules: RuleRunner,
    private readonly events: WaterEvents & OrganizationEvents,
    private readonly log: Logger,
  ) {}

  /** Before a write: `values` as the records will be stored (for an update, the fields it writes). */
  async before(entity: EntityDoc, placements: Placement[]): Promise<void> {
    await this.positions.adding(entity, placements);
  }

  /** After the write. */
  async run(entity: EntityDoc, changes: RecordChange[]): Promise<void> {
    if (changes.length === 0) return;
    // The staff's pages read the entity again (docs/hub.md: things:changed names no record or value).
    this.events.toOrganization(entity.organizationID, 'things:changed', {
      organizationId: entity.organizationID,
      entityId: entity._id,
    });
    try {
      const cells = await this.positions.changed(entity, changes);
      if (cells.length > 0)
        this.events.waterChanged({ entityId: entity._id, cells: cells.length <= MAX_CELLS_NAMED ? cells : null });
    } catch (err) {
      // Entries of old places stay: searches pass over them (their records are elsewhere or gone).
      this.log.error(
        { err, entityID: entity._id },
        'old positions of deleted or moved records could not be removed from the position index',
      );
      this.events.waterChanged({ entityId: entity._id, cells: null });
    }
    await this.rules.run(entity, changes);
  }
}
