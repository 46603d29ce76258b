// The records of a thing as a table whose columns are its fields (T5: searched, ordered by a column,
// a page at a time). A column's heading orders by it; the first cell opens the record.
import { showValue, recordTitle, valuesById, type Entity, type ThingRecord } from './things-model.js';
import { w } from './things-words.js';

export interface Order {
  by: string | null;
  dir: 'asc' | 'desc';
}

export function RecordsTable({
  entity,
  records,
  order,
  onOrder,
  onOpen,
  open,
}: {
  entity: Entity;
  records: ThingRecord[];
  order: Order;
  onOrder: (order: Order) => void;
  onOpen: (record: ThingRecord) => void;
  /** The record open below, marked in the table. */
  open: string | null;
}) {
  const sortOf = (fieldId: string) =>
    order.by === fieldId ? (order.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  return (
    // Many fields make a wide table: it scrolls on its own, the page does not.
    <div class="thing-table" role="region" aria-label={w.tableLabel(entity.name)} tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col" class="thing-open-col">
              <span class="thing-sr-only">{w.actions}</span>
            </th>
            {entity.fields.map((f) => (
              <th key={f.id} scope="col" aria-sort={sortOf(f.id)}>
                <button
                  type="button"
                  class="thing-sort"
                  title={w.orderBy(f.name)}
                  onClick={() => onOrder({ by: f.id, dir: order.by === f.id && order.dir === 'asc' ? 'desc' : 'asc' })}
                >
                  {f.name}
                  <span aria-hidden="true">{order.by === f.id ? (order.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r, index) => {
            const values = valuesById(r);
            const title = recordTitle(entity, r, `#${index + 1}`);
            return (
              <tr key={r.id} class={open === r.id ? 'thing-row-open' : undefined}>
                <td>
                  <button
                    type="button"
                    class="button small secondary thing-open-button"
                    aria-label={w.openRecord(title)}
                    aria-expanded={open === r.id}
                    onClick={() => onOpen(r)}
                  >
                    {w.open}
                  </button>
                </td>
                {entity.fields.map((f) => (
                  <td key={f.id}>{showValue(f, values[f.id])}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
