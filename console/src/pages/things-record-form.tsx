// One record: a form built from the thing's field types for those who may write it (T6 creates, T9
// changes, T7 with one deleteID removes it), its values as a list for those who may only read it. A
// position is typed or picked on the map; a value the API refuses is named at its field.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { MapView } from '../map.js';
import { Problem, explain } from '../ui.js';
import {
  fromInput,
  positionOf,
  recordProblems,
  showValue,
  toInput,
  valuesById,
  type Entity,
  type Field,
  type ThingRecord,
} from './things-model.js';
import { w } from './things-words.js';

const INPUT_TYPES: Record<string, string> = {
  date: 'date',
  datetime: 'datetime-local',
  url: 'url',
  email: 'email',
  phone: 'tel',
};

/** A position: typed as "latitude, longitude" or picked on the map; the map follows what is typed, not each pick. */
function PositionInput({
  field,
  common,
  value,
  onValue,
  view,
}: {
  field: Field;
  common: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  value: string;
  onValue: (value: string) => void;
  view: { center: { lat: number; lon: number }; zoom: number };
}) {
  const at = positionOf(value);
  const [shown, setShown] = useState(() => (at ? { center: at, zoom: Math.max(view.zoom, 16) } : view));
  return (
    <>
      <input
        {...common}
        value={value}
        inputMode="decimal"
        autoComplete="off"
        placeholder="50.1334, 8.9179"
        onInput={(e) => {
          const text = (e.target as HTMLInputElement).value;
          const typed = positionOf(text);
          if (typed) setShown({ center: typed, zoom: Math.max(shown.zoom, 16) });
          onValue(text);
        }}
      />
      <span id={`${common.id}-hint`} class="hint">
        {w.positionHint}
      </span>
      <MapView
        label={w.pickLabel(field.name)}
        center={shown.center}
        zoom={shown.zoom}
        markers={at ? [{ lat: at.lat, lon: at.lon, label: w.picked, kind: 'pick' }] : []}
        onPick={(lat, lon) => onValue(`${lat}, ${lon}`)}
      />
    </>
  );
}

function ValueInput({
  field,
  id,
  value,
  problem,
  onValue,
  view,
}: {
  field: Field;
  id: string;
  value: string;
  problem?: string;
  onValue: (value: string) => void;
  view: { center: { lat: number; lon: number }; zoom: number };
}) {
  const common = {
    id,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-problem` : field.type === 'coordinates' ? `${id}-hint` : undefined,
  } as const;
  const read = (e: Event) => onValue((e.target as HTMLInputElement).value);
  if (field.type === 'boolean' || field.type === 'selection')
    return (
      <select {...common} value={value} onChange={read}>
        <option value="">{w.empty}</option>
        {field.type === 'boolean' ? (
          <>
            <option value="true">{w.yes}</option>
            <option value="false">{w.no}</option>
          </>
        ) : (
          field.selectionValues.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))
        )}
      </select>
    );
  if (field.type === 'coordinates')
    return <PositionInput field={field} common={common} value={value} onValue={onValue} view={view} />;
  return (
    <input
      {...common}
      type={INPUT_TYPES[field.type] ?? 'text'}
      inputMode={field.type === 'number' ? 'decimal' : undefined}
      value={value}
      maxLength={field.type === 'address' ? 500 : 10_000}
      onInput={read}
    />
  );
}

/** The values of a record for a reader. */
export function RecordValues({ entity, record }: { entity: Entity; record: ThingRecord }) {
  const values = valuesById(record);
  return (
    <dl class="thing-values">
      {entity.fields.map((f) => (
        <div key={f.id} class="thing-value-row">
          <dt>{f.name}</dt>
          <dd>{showValue(f, values[f.id]) || w.empty}</dd>
        </div>
      ))}
    </dl>
  );
}

export function RecordForm({
  entity,
  record,
  view,
  onSaved,
  onDeleted,
  onCancel,
}: {
  entity: Entity;
  /** The record to change; none: a new one. */
  record: ThingRecord | null;
  /** Where a map for picking a position starts when the record has none. */
  view: { center: { lat: number; lon: number }; zoom: number };
  onSaved: (record: ThingRecord, created: boolean) => void;
  onDeleted: () => void;
  onCancel: () => void;
}) {
  const stored = record ? valuesById(record) : {};
  const [inputs, setInputs] = useState<Record<string, string>>(() =>
    Object.fromEntries(entity.fields.map((f) => [f.id, toInput(f, stored[f.id])])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const prefix = `record-${record ? record.id.slice(0, 8) : 'new'}`;

  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    // A new record sends what is filled in; a change sends what differs from the stored value ('' clears).
    const values = entity.fields
      .map((f) => ({ fieldID: f.id, value: fromInput(f, inputs[f.id] ?? '') }))
      .filter((v) => (record ? v.value !== (stored[v.fieldID] ?? '') : v.value !== ''));
    setBusy(true);
    try {
      const saved = record
        ? await api<ThingRecord>('PUT', `/things/records/${record.id}`, { values })
        : await api<ThingRecord>('POST', `/things/entities/${entity.id}/records`, { values });
      if (!record) setInputs(Object.fromEntries(entity.fields.map((f) => [f.id, ''])));
      onSaved(saved, !record);
    } catch (err) {
      setProblems(recordProblems(err, entity.fields, values));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!record || !confirm(w.deleteConfirm)) return;
    setProblems({});
    try {
      const result = await api<{ failedEntries: Array<{ id: string; reason: string }> }>(
        'POST',
        `/things/entities/${entity.id}/records/bulk`,
        { deleteIDs: [record.id] },
      );
      if (result.failedEntries.length > 0) setProblems({ form: result.failedEntries[0].reason });
      else onDeleted();
    } catch (err) {
      setProblems({ form: explain(err) });
    }
  };

  return (
    <form class="stack thing-form" onSubmit={submit} noValidate>
      {entity.fields.map((f) => {
        const id = `${prefix}-${f.id.slice(0, 8)}`;
        return (
          <div key={f.id} class="stack thing-value">
            <label for={id}>
              {f.name} <span class="meta">({w.types[f.type]})</span>
            </label>
            <ValueInput
              field={f}
              id={id}
              value={inputs[f.id] ?? ''}
              problem={problems[f.id]}
              view={view}
              onValue={(value) => setInputs((all) => ({ ...all, [f.id]: value }))}
            />
            {problems[f.id] && (
              <span id={`${id}-problem`} class="field-problem" data-testid="field-problem">
                {problems[f.id]}
              </span>
            )}
          </div>
        );
      })}
      <Problem text={problems.form ?? null} />
      <div class="row wrap">
        <button class="button" type="submit" disabled={busy}>
          {record ? w.save : w.create}
        </button>
        <button class="button secondary" type="button" onClick={onCancel}>
          {w.cancel}
        </button>
        {record && (
          <button class="button danger" type="button" onClick={remove}>
            {w.deleteRecord}
          </button>
        )}
      </div>
    </form>
  );
}
