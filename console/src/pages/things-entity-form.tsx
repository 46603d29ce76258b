// Creating (T2) and changing (T4) a thing: its name, description and symbol, its fields in words a station
// admin knows (name, type, the choices of a selection), and which members read or also write its records.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { Organization } from '../session.js';
import { Problem, explain } from '../ui.js';
import { FIELD_TYPES, type Entity, type FieldType, type Member } from './things-model.js';
import { w } from './things-words.js';

interface FieldDraft {
  key: number;
  id?: string;
  name: string;
  type: FieldType;
  choices: string;
}

type Access = 'none' | 'read' | 'write';

let nextKey = 1;
const blankField = (): FieldDraft => ({ key: nextKey++, name: '', type: 'text', choices: '' });

/** The problems of a failed T2/T4 by what the form shows: name, icon, description, field-<i>, user-<id>, form. */
function entityProblems(err: unknown, fields: FieldDraft[], sent: { ro: number[]; rw: number[] }) {
  const at: Record<string, string> = {};
  if (!(err instanceof ApiError) || err.status !== 400 || err.details.length === 0) return { form: explain(err) };
  for (const d of err.details) {
    const [head, index, part] = d.path.split('.');
    if (head === 'name') at.name ??= w.nameProblem;
    else if (head === 'description') at.description ??= w.descriptionProblem;
    else if (head === 'icon') at.icon ??= w.iconProblem;
    else if (head === 'fields' && index !== undefined && fields[Number(index)]) {
      const problem =
        part === 'selectionValues' ? w.choicesNeeded : /^Two fields/.test(d.problem) ? w.nameTwice : w.fieldNameProblem;
      at[`field-${index}`] ??= problem;
    } else if (head === 'fields') at.fields ??= `${w.fieldsRefused}: ${d.problem}`;
    else if ((head === 'readOnlyUserIDs' || head === 'readWriteUserIDs') && index !== undefined) {
      const id = (head === 'readOnlyUserIDs' ? sent.ro : sent.rw)[Number(index)];
      at[`user-${id}`] ??= w.notMember;
    } else at.form = explain(err);
  }
  return at;
}

export function EntityForm({
  organization,
  entity,
  members,
  onDone,
  onCancel,
}: {
  organization: Organization;
  entity?: Entity;
  members: Member[] | null;
  onDone: (entity: Entity) => void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(entity?.name ?? '');
  const [description, setDescription] = useState(entity?.description ?? '');
  const [icon, setIcon] = useState(entity?.icon ?? '');
  const [fields, setFields] = useState<FieldDraft[]>(
    entity
      ? entity.fields.map((f) => ({
          key: nextKey++,
          id: f.id,
          name: f.name,
          type: f.type,
          choices: f.selectionValues.join('\n'),
        }))
      : [blankField()],
  );
  const [access, setAccess] = useState<Record<number, Access>>(() => {
    const a: Record<number, Access> = {};
    for (const id of entity?.readOnlyUserIDs ?? []) a[id] = 'read';
    for (const id of entity?.readWriteUserIDs ?? []) a[id] = 'write';
    return a;
  });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const prefix = entity ? `entity-${entity.id.slice(0, 8)}` : 'entity-new';

  const change = (key: number, patch: Partial<FieldDraft>) =>
    setFields((list) => list.map((f) => (f.key === key ? { ...f, ...patch } : f)));
  const remove = (field: FieldDraft) => {
    if (field.id && !confirm(w.removeFieldConfirm(field.name || w.unnamed))) return;
    setFields((list) => list.filter((f) => f.key !== field.key));
  };
  const moveUp = (index: number) =>
    setFields((list) => [...list.slice(0, index - 1), list[index], list[index - 1], ...list.slice(index + 1)]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    const kept = fields.filter((f) => f.id || f.name.trim());
    const ro = Object.keys(access)
      .map(Number)
      .filter((id) => access[id] === 'read');
    const rw = Object.keys(access)
      .map(Number)
      .filter((id) => access[id] === 'write');
    const body = {
      name: name.trim(),
      description: description.trim(),
      icon: icon.trim(),
      fields: kept.map((f) => ({
        ...(f.id ? { id: f.id } : {}),
        name: f.name.trim(),
        type: f.type,
        ...(f.type === 'selection'
          ? {
              selectionValues: [
                ...new Set(
                  f.choices
                    .split('\n')
                    .map((c) => c.trim())
                    .filter(Boolean),
                ),
              ],
            }
          : {}),
      })),
      readOnlyUserIDs: ro,
      readWriteUserIDs: rw,
    };
    setBusy(true);
    try {
      const saved = entity
        ? await api<Entity>('PUT', `/things/entities/${entity.id}`, body)
        : await api<Entity>('POST', '/things/entities', { ...body, organizationID: organization.id });
      if (!entity) {
        setName('');
        setDescription('');
        setIcon('');
        setFields([blankField()]);
        setAccess({});
      }
      onDone(saved);
    } catch (err) {
      // A problem at field i of what was sent: the drafts without a name were left out.
      const byDraft = entityProblems(err, kept, { ro, rw });
      const mapped: Record<string, string> = {};
      for (const [k, v] of Object.entries(byDraft)) {
        const i = /^field-(\d+)$/.exec(k)?.[1];
        mapped[i === undefined ? k : `field-${kept[Number(i)].key}`] = v;
      }
      setProblems(mapped);
    } finally {
      setBusy(false);
    }
  };

  const described = (key: string) => (problems[key] ? `${prefix}-${key}-problem` : undefined);
  const problemOf = (key: string) =>
    problems[key] ? (
      <span id={`${prefix}-${key}-problem`} class="field-problem">
        {problems[key]}
      </span>
    ) : null;
  const people = (members ?? []).filter((m) => m.role === 'member');
  const listed = new Set(people.map((m) => m.userId));
  const strangers = Object.keys(access)
    .map(Number)
    .filter((id) => !listed.has(id) && access[id] !== 'none');
  const count = (a: Access) => Object.values(access).filter((v) => v === a).length;

  return (
    <form class="stack thing-form" onSubmit={submit} noValidate>
      <label for={`${prefix}-name`}>{w.entityName}</label>
      <input
        id={`${prefix}-name`}
        value={name}
        maxLength={200}
        placeholder={w.entityNameHint}
        aria-invalid={problems.name ? true : undefined}
        aria-describedby={described('name')}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      {problemOf('name')}
      <label for={`${prefix}-description`}>{w.description}</label>
      <textarea
        id={`${prefix}-description`}
        value={description}
        maxLength={2000}
        rows={2}
        aria-describedby={described('description')}
        onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)}
      />
      {problemOf('description')}
      <label for={`${prefix}-icon`}>{w.icon}</label>
      <input
        id={`${prefix}-icon`}
        class="thing-icon-input"
        value={icon}
        maxLength={32}
        aria-invalid={problems.icon ? true : undefined}
        aria-describedby={described('icon')}
        onInput={(e) => setIcon((e.target as HTMLInputElement).value)}
      />
      {problemOf('icon')}

      <fieldset class="thing-fields">
        <legend>{w.fields}</legend>
        <p class="hint">{w.fieldsLead}</p>
        <ol class="thing-field-list">
          {fields.map((f, index) => {
            const n = index + 1;
            const id = `${prefix}-field-${f.key}`;
            return (
              <li key={f.key} class="thing-field">
                <div class="thing-field-row">
                  <div class="stack">
                    <label for={`${id}-name`}>{w.fieldName(n)}</label>
                    <input
                      id={`${id}-name`}
                      value={f.name}
                      maxLength={200}
                      aria-invalid={problems[`field-${f.key}`] ? true : undefined}
                      aria-describedby={described(`field-${f.key}`)}
                      onInput={(e) => change(f.key, { name: (e.target as HTMLInputElement).value })}
                    />
                  </div>
                  <div class="stack">
                    <label for={`${id}-type`}>{w.fieldType(n)}</label>
                    <select
                      id={`${id}-type`}
                      value={f.type}
                      onChange={(e) => change(f.key, { type: (e.target as HTMLSelectElement).value as FieldType })}
                    >
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {w.types[type]}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div class="row thing-field-tools">
                    {index > 0 && (
                      <button
                        type="button"
                        class="button small secondary"
                        aria-label={w.moveUp(f.name || w.unnamed)}
                        title={w.moveUp(f.name || w.unnamed)}
                        onClick={() => moveUp(index)}
                      >
                        ↑
                      </button>
                    )}
                    <button
                      type="button"
                      class="button small danger"
                      aria-label={w.removeField(f.name || w.unnamed)}
                      title={w.removeField(f.name || w.unnamed)}
                      onClick={() => remove(f)}
                    >
                      ✕
                    </button>
                  </div>
                </div>
                {f.type === 'selection' && (
                  <div class="stack">
                    <label for={`${id}-choices`}>{w.fieldChoices(n)}</label>
                    <textarea
                      id={`${id}-choices`}
                      value={f.choices}
                      rows={3}
                      onInput={(e) => change(f.key, { choices: (e.target as HTMLTextAreaElement).value })}
                    />
                  </div>
                )}
                {problemOf(`field-${f.key}`)}
              </li>
            );
          })}
        </ol>
        <button type="button" class="button secondary" onClick={() => setFields((list) => [...list, blankField()])}>
          {w.addField}
        </button>
        {problems.fields && <Problem text={problems.fields} />}
      </fieldset>

      <details class="thing-access">
        <summary>
          {w.access} <span class="meta">({w.accessSummary(count('read'), count('write'))})</span>
        </summary>
        <p class="hint">{w.accessLead}</p>
        {members === null ? (
          <p aria-busy="true">…</p>
        ) : (
          <ul class="list">
            {[
              ...people.map((m) => ({ id: m.userId, name: m.name })),
              ...strangers.map((id) => ({ id, name: w.unknownUser(id) })),
            ].map((p) => (
              <li key={p.id}>
                <div>
                  <label for={`${prefix}-user-${p.id}`}>{p.name}</label>
                  {problemOf(`user-${p.id}`)}
                </div>
                <select
                  id={`${prefix}-user-${p.id}`}
                  value={access[p.id] ?? 'none'}
                  aria-describedby={described(`user-${p.id}`)}
                  onChange={(e) =>
                    setAccess((a) => ({ ...a, [p.id]: (e.target as HTMLSelectElement).value as Access }))
                  }
                >
                  <option value="none">{w.accessNone}</option>
                  <option value="read">{w.accessRead}</option>
                  <option value="write">{w.accessWrite}</option>
                </select>
              </li>
            ))}
          </ul>
        )}
      </details>

      <Problem text={problems.form ?? null} />
      <div class="row wrap">
        <button class="button" type="submit" disabled={busy}>
          {entity ? w.save : w.create}
        </button>
        {onCancel && (
          <button class="button secondary" type="button" onClick={onCancel}>
            {w.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
