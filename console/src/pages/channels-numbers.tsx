// One member's mobiles and phones as an admin keeps them (S9–S12, C7–C10 with organization_id): add a
// number, switch one off and on, remove one. A number the member entered himself only he changes (the
// API answers 403, said here in words); his app devices register themselves and are only shown.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { t, words } from '../i18n.js';
import { Problem, explain } from '../ui.js';
import { Field, channelProblems, shownNumber, typedNumber, type Device, type NumberView } from './channels-common.js';

/** What one member has on each channel. */
export interface MemberChannels {
  devices: Device[];
  mobiles: NumberView[];
  phones: NumberView[];
}

export type Kind = 'sms' | 'call';

const w = words(
  {
    title: { sms: 'Handynummern für SMS', call: 'Telefonnummern für Anrufe' },
    devices: 'App-Geräte',
    noDevices: 'Kein App-Gerät. Geräte meldet die App selbst an.',
    devicesHint: 'Geräte meldet die App des Mitglieds selbst an; hier sind sie nur zu sehen.',
    none: 'Keine.',
    active: 'aktiv',
    inactive: 'aus',
    deactivate: 'Ausschalten',
    activate: 'Einschalten',
    deactivateFor: (n: string) => `${n} ausschalten`,
    activateFor: (n: string) => `${n} einschalten`,
    removeFor: (n: string) => `${n} entfernen`,
    removeConfirm: (n: string) => `Die Nummer ${n} entfernen? Sie bekommt dann keinen Alarm mehr.`,
    ownOnly: 'Diese Nummer hat das Mitglied selbst eingetragen: Nur es selbst kann sie ändern oder entfernen.',
    newNumber: { sms: 'Neue Handynummer', call: 'Neue Telefonnummer' },
    numberHint: { sms: 'International, z. B. +49 171 1234567', call: 'International, z. B. +49 30 1234567' },
    label: 'Bezeichnung (freiwillig)',
    labelHint: { sms: 'z. B. „Diensthandy“', call: 'z. B. „Festnetz zu Hause“' },
    add: { sms: 'Handynummer hinzufügen', call: 'Telefonnummer hinzufügen' },
    added: (n: string) => `${n} hinzugefügt.`,
  },
  {
    title: { sms: 'Mobile numbers for SMS', call: 'Phone numbers for calls' },
    devices: 'App devices',
    noDevices: 'No app device. The app registers devices itself.',
    devicesHint: "The member's app registers his devices itself; here they are only shown.",
    none: 'None.',
    active: 'on',
    inactive: 'off',
    deactivate: 'Switch off',
    activate: 'Switch on',
    deactivateFor: (n: string) => `Switch off ${n}`,
    activateFor: (n: string) => `Switch on ${n}`,
    removeFor: (n: string) => `Remove ${n}`,
    removeConfirm: (n: string) => `Remove the number ${n}? It gets no alarm any more.`,
    ownOnly: 'The member entered this number himself: only he can change or remove it.',
    newNumber: { sms: 'New mobile number', call: 'New phone number' },
    numberHint: { sms: 'International, e.g. +49 171 1234567', call: 'International, e.g. +49 30 1234567' },
    label: 'Label (optional)',
    labelHint: { sms: 'e.g. "Work mobile"', call: 'e.g. "Landline at home"' },
    add: { sms: 'Add mobile number', call: 'Add phone number' },
    added: (n: string) => `${n} added.`,
  },
);

/** "aktiv" or "aus", as a badge. */
export const State = ({ active }: { active: boolean }) => (
  <span class={`badge ${active ? 'yes' : 'channels-off'}`}>{active ? w.active : w.inactive}</span>
);

const path = (kind: Kind) => (kind === 'sms' ? '/sms/mobile' : '/call/phone');

/** A number's name as people read it: "+49… (Diensthandy)". */
const numberLabel = (n: NumberView) => (n.name ? `${shownNumber(n.gsm)} (${n.name})` : shownNumber(n.gsm));

function NumberList({
  kind,
  organizationId,
  member,
  numbers,
  onChanged,
}: {
  kind: Kind;
  organizationId: number;
  member: { userId: number; name: string };
  numbers: NumberView[];
  onChanged(): Promise<void>;
}) {
  const [problems, setProblems] = useState<Record<number, string>>({});
  const [gsm, setGsm] = useState('');
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const [addProblems, setAddProblems] = useState<Record<string, string>>({});
  const query = `organization_id=${organizationId}`;

  // 403: a number the member entered himself (docs/api.md "The app, sms and call areas").
  const refused = (err: unknown) => (err instanceof ApiError && err.status === 403 ? w.ownOnly : explain(err));
  const change = async (n: NumberView, write: () => Promise<unknown>) => {
    setProblems((p) => ({ ...p, [n.id]: '' }));
    setAdded(null);
    try {
      await write();
    } catch (err) {
      setProblems((p) => ({ ...p, [n.id]: refused(err) }));
    }
    await onChanged();
  };
  const toggle = (n: NumberView) =>
    change(n, () =>
      kind === 'sms'
        ? api('PUT', `/sms/mobile?${query}`, { id: n.id, active: !n.active })
        : api('PUT', `/call/phone/${n.id}?${query}`, { active: !n.active }),
    );
  const remove = (n: NumberView) => {
    if (!confirm(w.removeConfirm(shownNumber(n.gsm)))) return;
    void change(n, () => api('DELETE', `${path(kind)}/${n.id}?${query}`));
  };
  const add = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setAddProblems({});
    setAdded(null);
    try {
      const made = await api<NumberView>('POST', `${path(kind)}?${query}`, {
        gsm: typedNumber(gsm),
        ownerID: member.userId,
        name: label.trim(),
        active: true,
      });
      setAdded(w.added(shownNumber(made.gsm)));
      setGsm('');
      setLabel('');
      await onChanged();
    } catch (err) {
      setAddProblems(channelProblems(err, ['gsm', 'name']));
    } finally {
      setBusy(false);
    }
  };

  const prefix = `member-${member.userId}-${kind}`;
  return (
    <div class="channels-numbers">
      <h4 id={`${prefix}-title`}>{w.title[kind]}</h4>
      {numbers.length === 0 ? (
        <p class="meta">{w.none}</p>
      ) : (
        <ul class="list" aria-labelledby={`${prefix}-title`}>
          {numbers.map((n) => (
            <li key={n.id} class="column">
              <div class="row spread wrap">
                <span>
                  {numberLabel(n)} <State active={n.active} />
                </span>
                <span class="row">
                  <button
                    class="button small secondary"
                    type="button"
                    aria-label={n.active ? w.deactivateFor(numberLabel(n)) : w.activateFor(numberLabel(n))}
                    onClick={() => toggle(n)}
                  >
                    {n.active ? w.deactivate : w.activate}
                  </button>
                  <button
                    class="button small danger"
                    type="button"
                    aria-label={w.removeFor(numberLabel(n))}
                    onClick={() => remove(n)}
                  >
                    ✕
                  </button>
                </span>
              </div>
              <Problem text={problems[n.id] || null} />
            </li>
          ))}
        </ul>
      )}
      <form class="stack" onSubmit={add} noValidate>
        <div class="channels-fields">
          <Field
            id={`${prefix}-gsm`}
            label={w.newNumber[kind]}
            hint={w.numberHint[kind]}
            type="tel"
            maxLength={24}
            value={gsm}
            set={setGsm}
            problem={addProblems.gsm}
          />
          <Field
            id={`${prefix}-name`}
            label={w.label}
            hint={w.labelHint[kind]}
            value={label}
            set={setLabel}
            problem={addProblems.name}
          />
        </div>
        <Problem text={addProblems.form ?? null} />
        {added && (
          <p class="notice" role="status">
            {added}
          </p>
        )}
        <button class="button secondary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : w.add[kind]}
        </button>
      </form>
    </div>
  );
}

/** An admin's panel for one member: his devices (shown), his mobiles and phones (kept). */
export function NumbersEditor({
  organizationId,
  member,
  data,
  onChanged,
}: {
  organizationId: number;
  member: { userId: number; name: string };
  data: MemberChannels;
  onChanged(): Promise<void>;
}) {
  return (
    <div class="channels-editor-body">
      <h4>{w.devices}</h4>
      {data.devices.length === 0 ? (
        <p class="meta">{w.noDevices}</p>
      ) : (
        <>
          <ul class="channels-plain">
            {data.devices.map((d) => (
              <li key={d.id}>
                {d.name} <span class="meta">({d.os})</span> <State active={d.active} />
              </li>
            ))}
          </ul>
          <p class="meta">{w.devicesHint}</p>
        </>
      )}
      {(['sms', 'call'] as const).map((kind) => (
        <NumberList
          key={kind}
          kind={kind}
          organizationId={organizationId}
          member={member}
          numbers={kind === 'sms' ? data.mobiles : data.phones}
          onChanged={onChanged}
        />
      ))}
    </div>
  );
}
