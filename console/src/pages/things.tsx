// /console/things: the organization's things (T1, searched by name) with their record counts and the
// organization's record usage (T13); for admins creating one with its fields and who may read or write
// it (T2). /console/things/<uuid> is one thing and its records (things-entity.tsx). The hub sends no
// event for entities to the organization's room: the list is read again on each connection.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import { EntityForm } from './things-entity-form.js';
import { EntityPage } from './things-entity.js';
import type { Entity, Usage } from './things-model.js';
import { Pager, UsageMeter, useMembers } from './things-parts.js';
import { w } from './things-words.js';

const PAGE = 20;

function EntityList({ organization }: { organization: Organization }) {
  const admin = organization.role === 'admin';
  const [entities, setEntities] = useState<Entity[] | null>(null);
  const [total, setTotal] = useState(0);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const members = useMembers(admin ? organization : null);

  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const q = new URLSearchParams({
        organization_id: String(organization.id),
        limit: String(PAGE),
        offset: String(offset),
      });
      if (query) q.set('search', query);
      const found = await reads(() =>
        Promise.all([
          api<{ entities: Entity[]; total: number }>('GET', `/things/entities?${q}`),
          api<Usage>('GET', `/things/usage?organization_id=${organization.id}`),
        ]),
      );
      if (!found) return;
      const [list, used] = found;
      setEntities(list.entities);
      setTotal(list.total);
      setUsage(used);
      setProblem(null);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organization.id, query, offset]);
  useEffect(() => void load(), [load]);
  // A thing made or changed, or records written, anywhere: the list and its counts are read again.
  const changed = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === organization.id) void load();
    },
    [organization.id, load],
  );
  useHubEvent('things:changed', changed, load);

  return (
    <>
      <p class="hint">{w.lead}</p>
      <UsageMeter usage={usage} />
      <Problem text={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <h2>{w.entities}</h2>
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
          aria-label={w.searchEntities}
          placeholder={w.searchEntities}
          value={search}
          maxLength={200}
          onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
        />
        <button class="button secondary" type="submit">
          {w.search}
        </button>
      </form>
      {entities === null ? (
        <p aria-busy="true">{t.loading}</p>
      ) : entities.length === 0 ? (
        <p class="hint">{query ? w.noMatch : w.noEntities}</p>
      ) : (
        <ul class="list">
          {entities.map((e) => (
            <li key={e.id}>
              <a class="alarm-link" href={`/console/things/${e.id}${location.search}`}>
                <strong>
                  {e.icon && <span aria-hidden="true">{e.icon} </span>}
                  {e.name}
                </strong>
                <span class="meta">
                  {w.recordCount(e.recordCount)} · {w.fieldCount(e.fields.length)}
                  {e.description && ` · ${e.description}`}
                </span>
              </a>
              {!admin && <span class="badge">{e.canWrite ? w.accessWrite : w.accessRead}</span>}
            </li>
          ))}
        </ul>
      )}
      {total > PAGE && <Pager offset={offset} size={PAGE} total={total} onPage={setOffset} label={w.entities} />}
      {admin ? (
        <section aria-labelledby="new-entity">
          <h2 id="new-entity">{w.newEntity}</h2>
          <EntityForm
            organization={organization}
            members={members}
            onDone={(entity) => {
              setNotice(w.created(entity.name));
              void load();
            }}
          />
        </section>
      ) : (
        <p class="hint">{w.readOnlyEntities}</p>
      )}
    </>
  );
}

export function ThingsPage({ session, organization }: { session: Session; organization: Organization | null }) {
  // /console/things/<uuid>: one thing (main.tsx sends every /console/things/… path here).
  const entityId = /^\/console\/things\/([0-9a-fA-F-]{36})\/?$/.exec(location.pathname)?.[1];
  const [title, setTitle] = useState(w.title);
  return (
    <Shell current="things" title={title} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : entityId ? (
        <EntityPage organization={organization} entityId={entityId} onTitle={setTitle} />
      ) : (
        <EntityList organization={organization} />
      )}
    </Shell>
  );
}
