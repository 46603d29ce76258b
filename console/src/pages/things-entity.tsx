// /console/things/<uuid>: one thing (T3) and its records (T5) as a table, on a map when it has a position
// field (water sources: hydrants, cisterns …), a record opened for reading or changing (T6, T9, T7 to
// delete), and for admins the thing's fields and access (T4). Read again on each hub connection and
// whenever the hub's things:changed names this thing (a record or the thing changed, here or elsewhere).
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { t } from '../i18n.js';
import { MapView, viewOf } from '../map.js';
import type { Organization } from '../session.js';
import { Problem, explain } from '../ui.js';
import { EntityForm } from './things-entity-form.js';
import { Pager, UsageMeter, useMembers } from './things-parts.js';
import {
  FALLBACK_VIEW,
  markerKind,
  positionField,
  positionOf,
  recordTitle,
  valuesById,
  type Entity,
  type ThingRecord,
  type Usage,
} from './things-model.js';
import { RecordForm, RecordValues } from './things-record-form.js';
import { RecordsTable, type Order } from './things-records.js';
import { w } from './things-words.js';

const PAGE = 25;
/** The map reads the records a page of 50 at a time, up to this many. */
const MAP_CAP = 500;

type RecordList = { records: ThingRecord[]; total: number };

function recordQuery(query: string, order: Order, offset: number, limit: number): string {
  const q = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (query) q.set('search', query);
  if (order.by) {
    q.set('orderby', order.by);
    q.set('orderdir', order.dir);
  }
  return q.toString();
}

/** A thing that is gone or not granted is said as one (its records' reads fail the same way). */
function problemOf(err: unknown): string {
  return err instanceof ApiError && (err.status === 404 || err.status === 403) ? w.notFoundEntity : explain(err);
}

export function EntityPage({
  organization,
  entityId,
  onTitle,
}: {
  organization: Organization;
  entityId: string;
  onTitle: (title: string) => void;
}) {
  const admin = organization.role === 'admin';
  const [entity, setEntity] = useState<Entity | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [list, setList] = useState<RecordList | null>(null);
  const [mapped, setMapped] = useState<RecordList | null>(null);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState<Order>({ by: null, dir: 'asc' });
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<ThingRecord | 'new' | null>(null);
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const members = useMembers(organization);
  const openHeading = useRef<HTMLHeadingElement>(null);
  const base = `/things/entities/${entityId}`;

  const entityReads = useNewest();
  const recordReads = useNewest();
  const mapReads = useNewest();
  const loadEntity = useCallback(async () => {
    try {
      const both = await entityReads(() =>
        Promise.all([api<Entity>('GET', base), api<Usage>('GET', `/things/usage?organization_id=${organization.id}`)]),
      );
      if (!both) return;
      const [found, used] = both;
      setEntity(found);
      setUsage(used);
      setProblem(null);
      onTitle(`${found.icon ? `${found.icon} ` : ''}${found.name}`);
    } catch (err) {
      setProblem(problemOf(err));
    }
  }, [base, organization.id]);
  const loadRecords = useCallback(async () => {
    try {
      const found = await recordReads(() =>
        api<RecordList>('GET', `${base}/records?${recordQuery(query, order, offset, PAGE)}`),
      );
      if (found) setList(found);
    } catch (err) {
      setProblem(problemOf(err));
    }
  }, [base, query, order, offset]);
  const hasMap = entity ? positionField(entity) !== undefined : false;
  const loadMap = useCallback(async () => {
    if (!hasMap) return;
    try {
      const found = await mapReads(async () => {
        const all: ThingRecord[] = [];
        let total: number;
        do {
          const page = await api<RecordList>(
            'GET',
            `${base}/records?${recordQuery(query, { by: null, dir: 'asc' }, all.length, 50)}`,
          );
          all.push(...page.records);
          total = page.total;
          if (page.records.length === 0) break;
        } while (all.length < Math.min(total, MAP_CAP));
        return { records: all, total };
      });
      if (found) setMapped(found);
    } catch (err) {
      setProblem(problemOf(err));
    }
  }, [base, query, hasMap]);
  useEffect(() => void loadEntity(), [loadEntity]);
  useEffect(() => void loadRecords(), [loadRecords]);
  useEffect(() => void loadMap(), [loadMap]);
  const again = useCallback(() => {
    void loadEntity();
    void loadRecords();
    void loadMap();
  }, [loadEntity, loadRecords, loadMap]);
  const changed = useCallback(
    (event: { entityId: string }) => {
      if (event.entityId === entityId) again();
    },
    [entityId, again],
  );
  useHubEvent('things:changed', changed, again);

  // An opened record is brought into view with its heading focused, from the table or from the map.
  useEffect(() => {
    if (!open || !openHeading.current) return;
    openHeading.current.scrollIntoView({ block: 'start' });
    openHeading.current.focus();
  }, [open]);

  const field = entity ? positionField(entity) : undefined;
  const markers = useMemo(() => {
    if (!entity || !field || !mapped) return [];
    return mapped.records.flatMap((r, index) => {
      const at = positionOf(valuesById(r)[field.id]);
      return at ? [{ ...at, label: recordTitle(entity, r, `#${index + 1}`), kind: markerKind(entity), id: r.id }] : [];
    });
  }, [entity, field, mapped]);
  const view = useMemo(() => viewOf(markers, FALLBACK_VIEW), [markers]);

  if (!entity)
    return problem ? (
      <>
        <Problem text={problem} />
        <a href={`/console/things${location.search}`}>{w.backToEntities}</a>
      </>
    ) : (
      <p aria-busy="true">{t.loading}</p>
    );

  const nameOf = (id: number) => members?.find((m) => m.userId === id)?.name ?? w.unknownUser(id);
  const names = (ids: number[]) => (ids.length ? ids.map(nameOf).join(', ') : w.nobody);
  const saved = (message: string) => {
    setOpen(null);
    setNotice(message);
    again();
  };

  return (
    <>
      <p>
        <a href={`/console/things${location.search}`}>← {w.backToEntities}</a>
      </p>
      {entity.description && <p>{entity.description}</p>}
      <dl class="thing-access-list">
        <div>
          <dt>{w.readers}</dt>
          <dd>{names(entity.readOnlyUserIDs)}</dd>
        </div>
        <div>
          <dt>{w.writers}</dt>
          <dd>{names(entity.readWriteUserIDs)}</dd>
        </div>
      </dl>
      {!admin && <p class="hint">{entity.canWrite ? w.canWrite : w.readOnlyRecords}</p>}
      <UsageMeter usage={usage} />
      <Problem text={problem} />

      {field && (
        <section aria-labelledby="thing-map">
          <h2 id="thing-map">{w.mapTitle}</h2>
          <MapView
            label={w.mapLabel(entity.name)}
            center={view.center}
            zoom={view.zoom}
            markers={markers}
            fit
            onMarker={(m) => {
              const record = mapped?.records.find((r) => r.id === m.id);
              if (record) setOpen(record);
            }}
          />
          {mapped && markers.length === 0 && <p class="hint">{w.mapNone}</p>}
          {mapped && mapped.total > mapped.records.length && (
            <p class="hint">{w.mapCapped(mapped.records.length, mapped.total)}</p>
          )}
        </section>
      )}

      <section aria-labelledby="thing-records">
        <h2 id="thing-records">
          {w.records} <span class="meta">({w.recordCount(entity.recordCount)})</span>
        </h2>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <form
          class="row thing-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setOffset(0);
            setQuery(search.trim());
          }}
        >
          <input
            type="search"
            class="thing-search-input"
            aria-label={w.searchRecords}
            placeholder={w.searchRecords}
            value={search}
            maxLength={200}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          />
          <button class="button secondary" type="submit">
            {w.search}
          </button>
        </form>
        {list === null ? (
          <p aria-busy="true">{t.loading}</p>
        ) : list.records.length === 0 ? (
          <p class="hint">{query ? w.noMatch : w.noRecords}</p>
        ) : (
          <RecordsTable
            entity={entity}
            records={list.records}
            order={order}
            open={open && open !== 'new' ? open.id : null}
            onOrder={(next) => {
              setOffset(0);
              setOrder(next);
            }}
            onOpen={(r) => setOpen(open !== 'new' && open?.id === r.id ? null : r)}
          />
        )}
        {list && list.total > PAGE && (
          <Pager offset={offset} size={PAGE} total={list.total} onPage={setOffset} label={w.records} />
        )}
        {entity.canWrite && open !== 'new' && (
          <button class="button" type="button" onClick={() => setOpen('new')}>
            {w.newRecord}
          </button>
        )}
      </section>

      {open && (
        <section aria-labelledby="thing-open" class="thing-open">
          <h2 id="thing-open" ref={openHeading} tabIndex={-1}>
            {open === 'new'
              ? w.newRecord
              : `${entity.canWrite ? w.editRecord : w.showRecord}: ${recordTitle(entity, open, '')}`}
          </h2>
          {entity.canWrite ? (
            <RecordForm
              key={open === 'new' ? 'new' : open.id}
              entity={entity}
              record={open === 'new' ? null : open}
              view={view}
              onSaved={(_, created) => saved(created ? w.recordCreated : w.recordSaved)}
              onDeleted={() => saved(w.recordDeleted)}
              onCancel={() => setOpen(null)}
            />
          ) : (
            open !== 'new' && (
              <>
                <RecordValues entity={entity} record={open} />
                <button class="button secondary" type="button" onClick={() => setOpen(null)}>
                  {w.close}
                </button>
              </>
            )
          )}
        </section>
      )}

      {admin && (
        <section aria-labelledby="thing-edit">
          <h2 id="thing-edit">{w.editEntity}</h2>
          {editing ? (
            <EntityForm
              organization={organization}
              entity={entity}
              members={members}
              onCancel={() => setEditing(false)}
              onDone={(next) => {
                setEntity(next);
                setEditing(false);
                setNotice(w.saved);
                again();
              }}
            />
          ) : (
            <button class="button secondary" type="button" onClick={() => setEditing(true)}>
              {w.editEntity}
            </button>
          )}
        </section>
      )}
    </>
  );
}
