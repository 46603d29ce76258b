// What follows every record command's write (T6, T7, T9): the records' positions are indexed
// (positions.ts) and screens showing water sources in the touched cells are told, then the entity's
// rules run (rule-engine.ts). The records are written already: a failure here is logged, never the
// request's.
import type { Logger } from 'pino';
import type { WaterEvents } from '../../hub/events.js';
import type { EntityDoc } from './models.js';
import type { PositionIndex } from './positions.js';
import type { RecordChange, RuleRunner } from './rule-engine.js';

/** A `water:changed` names at most this many cells; beyond, it says "anywhere" (a county's import). */
const MAX_CELLS_NAMED = 200;

export class RecordEffects {
  constructor(private readonly positions: PositionIndex, private readonly rules: RuleRunner, private readonly events: WaterEvents, private readonly log: Logger) {}

  async run(entity: EntityDoc, changes: RecordChange[]): Promise<void> {
    if (changes.length === 0) return;
    try {
      const cells = await this.positions.changed(entity, changes);
      if (cells.length > 0) this.events.waterChanged({ entityId: entity._id, cells: cells.length <= MAX_CELLS_NAMED ? cells : null });
    } catch (err) {
      this.log.error({ err, entityID: entity._id }, 'records\' positions could not be indexed (the entity is scanned again on its next search)');
      this.events.waterChanged({ entityId: entity._id, cells: null });
    }
    await this.rules.run(entity, changes);
  }
}
