// Who can be reached how: each member's app devices (A1), mobiles (S9) and phones (C7), read by an
// admin with owner_id and organization_id (docs/api.md "The app, sms and call areas"). A compact table
// on a desktop, stacked on a phone, with a search and a filter for those no channel reaches, so that a
// list of fifty and more stays usable. A member reads only his own (the API shows him no one else's).
import { Fragment } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { t, words } from '../i18n.js';
import { Problem, explain } from '../ui.js';
import { pacedGet, shownNumber, type Device, type NumberView } from './channels-common.js';
import { NumbersEditor, State, type MemberChannels } from './channels-numbers.js';

const w = words(
  {
    title: 'Geräte und Nummern der Mitglieder',
    titleOwn: 'Ihre Geräte und Nummern',
    lead: 'Wohin ein Alarm geht: aktive App-Geräte bekommen eine Push-Nachricht, aktive Handynummern eine SMS, aktive Telefonnummern einen Anruf.',
    ownLead: 'Wohin ein Alarm Sie erreicht. Die Geräte und Nummern der anderen Mitglieder sieht nur die Verwaltung.',
    member: 'Mitglied',
    app: 'App',
    sms: 'SMS',
    call: 'Anruf',
    numbers: 'Nummern',
    numbersOf: (name: string) => `Geräte und Nummern von ${name}`,
    none: 'keine',
    active: 'aktiv',
    noWay: 'über keinen Weg erreichbar',
    search: 'Mitglied suchen',
    onlyNoWay: 'Nur Mitglieder, die kein Weg erreicht',
    summary: (app: number, sms: number, call: number, none: number) =>
      `${app} mit App · ${sms} mit SMS · ${call} mit Anruf · ${none} über keinen Weg`,
    reading: (done: number, all: number) => `Lädt … ${done} von ${all}`,
    noneShown: 'Kein Mitglied passt zur Suche.',
  },
  {
    title: "Members' devices and numbers",
    titleOwn: 'Your devices and numbers',
    lead: 'Where an alarm goes: active app devices get a push, active mobile numbers an SMS, active phone numbers a call.',
    ownLead: "Where an alarm reaches you. Only admins see the other members' devices and numbers.",
    member: 'Member',
    app: 'App',
    sms: 'SMS',
    call: 'Call',
    numbers: 'Numbers',
    numbersOf: (name: string) => `Devices and numbers of ${name}`,
    none: 'none',
    active: 'on',
    noWay: 'reached by no channel',
    search: 'Find a member',
    onlyNoWay: 'Only members no channel reaches',
    summary: (app: number, sms: number, call: number, none: number) =>
      `${app} with the app · ${sms} with SMS · ${call} with calls · ${none} reached by no channel`,
    reading: (done: number, all: number) => `Loading … ${done} of ${all}`,
    noneShown: 'No member matches the search.',
  },
);

interface Member {
  userId: number;
  name: string;
}

type Row = MemberChannels | { problem: string };

const reached = (row: MemberChannels) => ({
  app: row.devices.some((d) => d.active),
  sms: row.mobiles.some((n) => n.active),
  call: row.phones.some((n) => n.active),
});

/** How many members' rows are read at once; the reads are paced below the rate limit besides. */
const WORKERS = 4;

function Cell({ label, items }: { label: string; items: Array<{ id: number; text: string; active: boolean }> }) {
  return (
    <td class="channels-cell" data-label={label}>
      {items.length === 0 ? (
        <span class="badge no">{w.none}</span>
      ) : (
        <ul class="channels-plain">
          {items.map((item) => (
            <li key={item.id}>
              {/* Active is the usual case: said to a screen reader, shown only when it is not. */}
              <span class={`channels-number${item.active ? '' : ' channels-inactive'}`}>{item.text}</span>{' '}
              {item.active ? <span class="channels-hidden">({w.active})</span> : <State active={false} />}
            </li>
          ))}
        </ul>
      )}
    </td>
  );
}

export function PeopleSection({
  organizationId,
  admin,
  self,
  round,
  membersRound,
}: {
  organizationId: number;
  admin: boolean;
  self: Member;
  /** Grows with every hub connection: read everything again. */
  round: number;
  /** Grows with every `members:changed`: read the list again, and the rows of those new in it. */
  membersRound: number;
}) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [onlyNoWay, setOnlyNoWay] = useState(false);
  // A full read started later makes the rest of an earlier one pointless.
  const generation = useRef(0);
  const known = useRef<Record<number, Row>>({});
  known.current = rows;

  const readRow = useCallback(
    async (userId: number): Promise<Row> => {
      const q = `owner_id=${userId}&organization_id=${organizationId}`;
      try {
        const [devices, mobiles, phones] = await Promise.all([
          pacedGet<Device[]>(`/app/device?${q}`),
          pacedGet<NumberView[]>(`/sms/mobile?${q}`),
          pacedGet<NumberView[]>(`/call/phone?${q}`),
        ]);
        return { devices, mobiles, phones };
      } catch (err) {
        return { problem: explain(err) };
      }
    },
    [organizationId],
  );
  const readMembers = useCallback(async (): Promise<Member[] | null> => {
    if (!admin) return [self];
    try {
      const { members: list } = await api<{ members: Member[] }>('GET', `/organizations/${organizationId}/members`);
      setProblem(null);
      return [...list].sort((a, b) => a.name.localeCompare(b.name));
    } catch (err) {
      setProblem(explain(err));
      return null;
    }
  }, [admin, organizationId, self.userId, self.name]);
  const readRows = useCallback(
    async (ids: number[], gen: number | null) => {
      const queue = [...ids];
      const stale = () => gen !== null && gen !== generation.current;
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined && !stale(); id = queue.shift()) {
          const row = await readRow(id);
          if (stale()) return;
          setRows((all) => ({ ...all, [id]: row }));
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
    },
    [readRow],
  );

  useEffect(() => {
    const gen = ++generation.current;
    void (async () => {
      const list = await readMembers();
      if (!list || gen !== generation.current) return;
      setMembers(list);
      await readRows(
        list.map((m) => m.userId),
        gen,
      );
    })();
  }, [readMembers, readRows, round]);
  useEffect(() => {
    if (membersRound === 0) return;
    void (async () => {
      const list = await readMembers();
      if (!list) return;
      setMembers(list);
      await readRows(
        list.map((m) => m.userId).filter((id) => !known.current[id]),
        null,
      );
    })();
  }, [membersRound]);

  const reread = (userId: number) => async () => {
    const row = await readRow(userId);
    setRows((all) => ({ ...all, [userId]: row }));
  };

  const loaded = (members ?? [])
    .map((m) => rows[m.userId])
    .filter((r): r is MemberChannels => !!r && !('problem' in r));
  const ways = loaded.map(reached);
  const count = (pick: (way: ReturnType<typeof reached>) => boolean) => ways.filter(pick).length;
  const needle = search.trim().toLocaleLowerCase();
  const shown = (members ?? []).filter((m) => {
    if (needle && !m.name.toLocaleLowerCase().includes(needle)) return false;
    if (!onlyNoWay) return true;
    const row = rows[m.userId];
    if (!row || 'problem' in row) return false;
    const way = reached(row);
    return !way.app && !way.sms && !way.call;
  });
  const columns = admin ? 5 : 4;

  return (
    <section aria-labelledby="people" class="channels-section">
      <h2 id="people">{admin ? w.title : w.titleOwn}</h2>
      <p class="hint">{admin ? w.lead : w.ownLead}</p>
      <Problem text={problem} />
      {admin && members && (
        <>
          <p class="meta" role="status">
            {loaded.length < members.length
              ? w.reading(loaded.length, members.length)
              : w.summary(
                  count((x) => x.app),
                  count((x) => x.sms),
                  count((x) => x.call),
                  count((x) => !x.app && !x.sms && !x.call),
                )}
          </p>
          <div class="channels-filter">
            <div class="channels-field">
              <label for="people-search">{w.search}</label>
              <input
                id="people-search"
                type="search"
                value={search}
                autoComplete="off"
                onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
              />
            </div>
            <label class="choice">
              <input
                class="channels-check"
                type="checkbox"
                checked={onlyNoWay}
                onChange={(e) => setOnlyNoWay((e.target as HTMLInputElement).checked)}
              />
              {w.onlyNoWay}
            </label>
          </div>
        </>
      )}
      {members === null ? (
        !problem && <p aria-busy="true">{t.loading}</p>
      ) : shown.length === 0 ? (
        <p class="hint">{w.noneShown}</p>
      ) : (
        <table class="channels-people" aria-labelledby="people">
          <thead>
            <tr>
              <th class="channels-cell channels-head" scope="col">
                {w.member}
              </th>
              <th class="channels-cell channels-head" scope="col">
                {w.app}
              </th>
              <th class="channels-cell channels-head" scope="col">
                {w.sms}
              </th>
              <th class="channels-cell channels-head" scope="col">
                {w.call}
              </th>
              {admin && (
                <th class="channels-cell channels-head" scope="col">
                  <span class="channels-hidden">{w.numbers}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => {
              const row = rows[m.userId];
              const way = row && !('problem' in row) ? reached(row) : null;
              const editor = `numbers-${m.userId}`;
              return (
                <Fragment key={m.userId}>
                  <tr>
                    <th class="channels-cell" scope="row">
                      {m.name} {m.userId === self.userId && <span class="meta">{t.you}</span>}
                      {way && !way.app && !way.sms && !way.call && <span class="badge no">{w.noWay}</span>}
                      {row && 'problem' in row && <span class="field-problem">{row.problem}</span>}
                    </th>
                    {row && !('problem' in row) ? (
                      <>
                        <Cell
                          label={w.app}
                          items={row.devices.map((d) => ({ id: d.id, text: d.name, active: d.active }))}
                        />
                        <Cell
                          label={w.sms}
                          items={row.mobiles.map((n) => ({ id: n.id, text: shownNumber(n.gsm), active: n.active }))}
                        />
                        <Cell
                          label={w.call}
                          items={row.phones.map((n) => ({ id: n.id, text: shownNumber(n.gsm), active: n.active }))}
                        />
                      </>
                    ) : (
                      <td colSpan={3} class="channels-cell meta" aria-busy={!row}>
                        {!row && t.loading}
                      </td>
                    )}
                    {admin && (
                      <td class="channels-cell channels-act">
                        <button
                          class="button small secondary"
                          type="button"
                          disabled={!row || 'problem' in row}
                          aria-expanded={open === m.userId}
                          aria-controls={open === m.userId ? editor : undefined}
                          aria-label={w.numbersOf(m.name)}
                          onClick={() => setOpen(open === m.userId ? null : m.userId)}
                        >
                          {w.numbers}
                        </button>
                      </td>
                    )}
                  </tr>
                  {admin && open === m.userId && row && !('problem' in row) && (
                    <tr class="channels-editor">
                      <td colSpan={columns} id={editor} class="channels-cell">
                        <NumbersEditor
                          organizationId={organizationId}
                          member={m}
                          data={row}
                          onChanged={reread(m.userId)}
                        />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
