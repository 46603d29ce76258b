// The organization's switches for each way an alarm goes (A8/A9, S5/S6, C5/C6), and the form of its
// alarm SMS (S7/S8). Admins change them; members read them.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useNewest } from '../hub.js';
import { t, words } from '../i18n.js';
import { Problem, explain } from '../ui.js';

const CHANNELS = ['app', 'sms', 'call'] as const;
type Channel = (typeof CHANNELS)[number];

/** The text formatters the service has (schemas/sms.ts FORMATTER_NAMES), the default first. */
const FORMATTERS = ['standard', 'compact', 'detailed'] as const;
type Formatter = (typeof FORMATTERS)[number];

const w = words(
  {
    flagsTitle: 'Alarmierungswege',
    flagsLead:
      'Ein ausgeschalteter Weg wird bei keinem Alarm benutzt, auch nicht für Mitglieder mit aktivem Gerät oder aktiver Nummer.',
    name: { app: 'App-Alarmierung', sms: 'SMS-Alarmierung', call: 'Anruf-Alarmierung' },
    on: {
      app: 'App-Alarmierung ist an: Mitglieder mit aktivem App-Gerät bekommen eine Push-Nachricht.',
      sms: 'SMS-Alarmierung ist an: Mitglieder mit aktiver Handynummer bekommen eine SMS.',
      call: 'Anruf-Alarmierung ist an: Mitglieder mit aktiver Telefonnummer werden angerufen.',
    },
    off: {
      app: 'App-Alarmierung ist aus: Mitglieder bekommen keine Push-Nachricht.',
      sms: 'SMS-Alarmierung ist aus: Mitglieder bekommen keine SMS.',
      call: 'Anruf-Alarmierung ist aus: Mitglieder werden nicht angerufen.',
    },
    offConfirm: {
      app: 'App-Alarmierung ausschalten? Bei einem Alarm bekommt dann niemand eine Push-Nachricht.',
      sms: 'SMS-Alarmierung ausschalten? Bei einem Alarm bekommt dann niemand eine SMS.',
      call: 'Anruf-Alarmierung ausschalten? Bei einem Alarm wird dann niemand angerufen.',
    },
    onBadge: 'an',
    offBadge: 'aus',
    formatTitle: 'Text der Alarm-SMS',
    formatLead:
      'So sieht die SMS aus, die Mitglieder bei einem Alarm bekommen. Zeichen, die eine SMS nicht kennt, werden ersetzt.',
    format: { standard: 'Standard', compact: 'Kurz', detailed: 'Ausführlich' },
    formatWhat: {
      standard: 'Stichwort, Adresse und Meldung je auf einer Zeile, in so vielen SMS-Teilen wie nötig (höchstens 6).',
      compact: 'Alles auf einer Zeile, gekürzt auf eine einzige SMS (160 Zeichen).',
      detailed: 'Wie Standard, dazu ein Kartenlink, wenn der Alarm eine Position hat.',
    },
    formatNow: (name: string) => `Alarm-SMS kommen im Format „${name}“.`,
    sampleOf: (name: string) => `Beispiel „${name}“`,
    sample: ['B3 Wohnungsbrand', 'Hauptstraße 5, 12345 Musterstadt', 'Rauch aus Fenster im 2. OG, Person vermisst'],
    save: 'SMS-Text speichern',
    saved: (name: string) => `Gespeichert: Alarm-SMS kommen jetzt im Format „${name}“.`,
  },
  {
    flagsTitle: 'Ways of alarming',
    flagsLead: 'A way switched off is used by no alarm, not even for members with an active device or number.',
    name: { app: 'App alarms', sms: 'SMS alarms', call: 'Call alarms' },
    on: {
      app: 'App alarms are on: members with an active app device get a push.',
      sms: 'SMS alarms are on: members with an active mobile number get an SMS.',
      call: 'Call alarms are on: members with an active phone number are called.',
    },
    off: {
      app: 'App alarms are off: members get no push.',
      sms: 'SMS alarms are off: members get no SMS.',
      call: 'Call alarms are off: members are not called.',
    },
    offConfirm: {
      app: 'Switch off app alarms? Nobody will get a push when an alarm is raised.',
      sms: 'Switch off SMS alarms? Nobody will get an SMS when an alarm is raised.',
      call: 'Switch off call alarms? Nobody will be called when an alarm is raised.',
    },
    onBadge: 'on',
    offBadge: 'off',
    formatTitle: 'Text of the alarm SMS',
    formatLead: 'What the SMS members get for an alarm looks like. Characters an SMS does not know are replaced.',
    format: { standard: 'Standard', compact: 'Short', detailed: 'Detailed' },
    formatWhat: {
      standard: 'Keyword, address and message on a line each, in as many SMS parts as needed (at most 6).',
      compact: 'Everything on one line, cut to a single SMS (160 characters).',
      detailed: 'As standard, plus a map link when the alarm has a position.',
    },
    formatNow: (name: string) => `Alarm SMS come in the "${name}" form.`,
    sampleOf: (name: string) => `Example "${name}"`,
    sample: ['B3 Flat fire', '5 High Street, Springfield', 'Smoke from a window on the 2nd floor, one person missing'],
    save: 'Save SMS text',
    saved: (name: string) => `Saved: alarm SMS now come in the "${name}" form.`,
  },
);

/** The alarm SMS of the sample alarm as each formatter writes it (server/areas/sms/formatters.ts). */
function sampleText(formatter: Formatter): string {
  if (formatter === 'compact') return w.sample.join(' | ');
  const lines = w.sample.join('\n');
  return formatter === 'detailed'
    ? `${lines}\nMap: https://www.openstreetmap.org/?mlat=50.1109&mlon=8.6821#map=17/50.1109/8.6821`
    : lines;
}

export function FlagsSection({
  organizationId,
  admin,
  round,
}: {
  organizationId: number;
  admin: boolean;
  round: number;
}) {
  const [disabled, setDisabled] = useState<Record<Channel, boolean> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<Channel | null>(null);
  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const flags = await reads(() =>
        Promise.all(
          CHANNELS.map((c) =>
            api<Array<{ isDisabled: boolean }>>('GET', `/${c}/disabled?organization_id=${organizationId}`),
          ),
        ),
      );
      if (!flags) return;
      setDisabled({ app: !!flags[0][0]?.isDisabled, sms: !!flags[1][0]?.isDisabled, call: !!flags[2][0]?.isDisabled });
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organizationId]);
  useEffect(() => void load(), [load, round]);

  const set = async (channel: Channel, input: HTMLInputElement) => {
    const on = input.checked;
    if (!on && !confirm(w.offConfirm[channel])) {
      // Not switched off: the switch shows the state as it is, not as it was tapped.
      input.checked = true;
      return;
    }
    setBusy(channel);
    setProblem(null);
    try {
      const flag = await api<{ isDisabled: boolean }>('PUT', `/${channel}/disabled?organization_id=${organizationId}`, {
        isDisabled: !on,
      });
      setDisabled((now) => (now ? { ...now, [channel]: flag.isDisabled } : now));
    } catch (err) {
      setProblem(explain(err));
      await load();
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="flags" class="channels-section">
      <h2 id="flags">{w.flagsTitle}</h2>
      <p class="hint">{w.flagsLead}</p>
      <Problem text={problem} />
      {disabled === null ? (
        !problem && <p aria-busy="true">{t.loading}</p>
      ) : (
        <ul class="list channels-flags">
          {CHANNELS.map((c) => {
            const on = !disabled[c];
            return (
              <li key={c}>
                <div>
                  {admin ? <label for={`flag-${c}`}>{w.name[c]}</label> : <strong>{w.name[c]}</strong>}
                  <span id={`flag-${c}-state`} class="meta" data-testid={`flag-${c}`}>
                    {on ? w.on[c] : w.off[c]}
                  </span>
                </div>
                {admin ? (
                  <input
                    id={`flag-${c}`}
                    class="channels-switch"
                    type="checkbox"
                    role="switch"
                    checked={on}
                    disabled={busy === c}
                    aria-describedby={`flag-${c}-state`}
                    onChange={(e) => set(c, e.target as HTMLInputElement)}
                  />
                ) : (
                  <span class={`badge ${on ? 'yes' : 'no'}`}>{on ? w.onBadge : w.offBadge}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function FormatterSection({
  organizationId,
  admin,
  round,
}: {
  organizationId: number;
  admin: boolean;
  round: number;
}) {
  const [stored, setStored] = useState<Formatter | null>(null);
  const [picked, setPicked] = useState<Formatter | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const found = await reads(() =>
        api<{ textFormatterName: Formatter }>('GET', `/sms/formatter?organization=${organizationId}`),
      );
      if (!found) return;
      const { textFormatterName } = found;
      setStored(textFormatterName);
      setPicked((now) => now ?? textFormatterName);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organizationId]);
  useEffect(() => void load(), [load, round]);

  const save = async (e: Event) => {
    e.preventDefault();
    if (!picked) return;
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      const set = await api<{ textFormatterName: Formatter }>('PUT', '/sms/formatter', {
        organizationID: organizationId,
        textFormatterName: picked,
      });
      setStored(set.textFormatterName);
      setNotice(w.saved(w.format[set.textFormatterName]));
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const sample = (f: Formatter) => (
    <pre class="channels-sample">
      <span class="channels-hidden">{w.sampleOf(w.format[f])}: </span>
      {sampleText(f)}
    </pre>
  );
  return (
    <section aria-labelledby="formatter" class="channels-section">
      <h2 id="formatter">{w.formatTitle}</h2>
      <p class="hint">{w.formatLead}</p>
      <Problem text={problem} />
      {stored === null ? (
        !problem && <p aria-busy="true">{t.loading}</p>
      ) : admin ? (
        <form class="stack" onSubmit={save}>
          <fieldset class="channels-formats">
            <legend class="channels-hidden">{w.formatTitle}</legend>
            {FORMATTERS.map((f) => (
              // The whole card picks its form; the radio button is what the keyboard and a screen reader use.
              <div
                key={f}
                class={`channels-format${picked === f ? ' channels-format--picked' : ''}`}
                onClick={() => setPicked(f)}
              >
                <span class="row">
                  <input
                    id={`format-${f}`}
                    class="channels-radio"
                    type="radio"
                    name="formatter"
                    value={f}
                    checked={picked === f}
                    aria-describedby={`format-${f}-what`}
                    onChange={() => setPicked(f)}
                  />
                  <label for={`format-${f}`}>{w.format[f]}</label>
                </span>
                <span id={`format-${f}-what`} class="meta">
                  {w.formatWhat[f]}
                </span>
                {sample(f)}
              </div>
            ))}
          </fieldset>
          {notice && (
            <p class="notice" role="status">
              {notice}
            </p>
          )}
          <div class="row wrap">
            <button class="button" type="submit" disabled={busy || picked === stored} aria-busy={busy}>
              {busy ? t.loading : w.save}
            </button>
          </div>
        </form>
      ) : (
        <div class="stack">
          <p data-testid="formatter-now">
            <strong>{w.formatNow(w.format[stored])}</strong> {w.formatWhat[stored]}
          </p>
          {sample(stored)}
        </div>
      )}
    </section>
  );
}
