// The PIN configurations of one channel (S1–S4 for sms, C1–C4 for call): an SMS from this number with
// this PIN in its text, or a call from it with this PIN typed, raises an alarm (docs/alarms.md
// "Raised"). Admins create, change and remove them; members read them.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useNewest } from '../hub.js';
import { t, words } from '../i18n.js';
import { Problem, explain } from '../ui.js';
import { Field, channelProblems, shownNumber, typedNumber } from './channels-common.js';
import { NewTemplate, TemplateSelect, templateLabel, type Template } from './channels-templates.js';

type Channel = 'sms' | 'call';

const w = words(
  {
    title: { sms: 'SMS-Alarmierung per PIN', call: 'Anruf-Alarmierung per PIN' },
    lead: {
      sms: 'Eine SMS von dieser Nummer, in deren Text die PIN steht, löst einen Alarm aus: die erste Zeile (ohne PIN) wird das Stichwort, der Rest die Meldung.',
      call: 'Ein Anruf von dieser Nummer, bei dem die PIN eingetippt wird, löst einen Alarm mit der gewählten Alarmvorlage aus.',
    },
    none: { sms: 'Noch keine SMS-PIN.', call: 'Noch keine Anruf-PIN.' },
    newTitle: { sms: 'Neue SMS-PIN', call: 'Neue Anruf-PIN' },
    create: { sms: 'SMS-PIN anlegen', call: 'Anruf-PIN anlegen' },
    number: { sms: 'Nummer, von der die SMS kommt', call: 'Nummer, von der angerufen wird' },
    taken: {
      sms: 'Für diese Nummer gibt es in dieser Organisation schon eine SMS-PIN: Ändern Sie die bestehende.',
      call: 'Für diese Nummer gibt es in dieser Organisation schon eine Anruf-PIN: Ändern Sie die bestehende.',
    },
    edit: { sms: (n: string) => `SMS-PIN von ${n} ändern`, call: (n: string) => `Anruf-PIN von ${n} ändern` },
    remove: { sms: (n: string) => `SMS-PIN von ${n} entfernen`, call: (n: string) => `Anruf-PIN von ${n} entfernen` },
    removeConfirm: (n: string) => `Die PIN von ${n} entfernen? Von dieser Nummer kommt dann kein Alarm mehr an.`,
    numberHint: 'International, z. B. +49 171 1234567',
    pin: { sms: 'PIN im SMS-Text', call: 'PIN, die der Anrufer eintippt' },
    pinHint: '4 bis 8 Ziffern',
    pinShown: (pin: string) => `PIN ${pin}`,
    templateShown: (name: string) => `Vorlage: ${name}`,
    templateGone: 'Vorlage gelöscht: der Alarm heißt „Alarm per Telefon“',
    noTemplates:
      'Eine Anruf-PIN braucht eine Alarmvorlage, und die Organisation hat noch keine. Legen Sie zuerst eine an:',
    change: 'Ändern',
    save: 'Speichern',
    cancel: 'Abbrechen',
    saved: 'Gespeichert.',
    created: 'Angelegt.',
    readOnly: 'Nur die Verwaltung legt PINs an und ändert sie.',
  },
  {
    title: { sms: 'Alarms by SMS with a PIN', call: 'Alarms by call with a PIN' },
    lead: {
      sms: 'An SMS from this number with the PIN in its text raises an alarm: its first line (without the PIN) is the keyword, the rest the message.',
      call: 'A call from this number in which the PIN is typed raises an alarm with the chosen alarm template.',
    },
    none: { sms: 'No SMS PIN yet.', call: 'No call PIN yet.' },
    newTitle: { sms: 'New SMS PIN', call: 'New call PIN' },
    create: { sms: 'Create SMS PIN', call: 'Create call PIN' },
    number: { sms: 'Number the SMS comes from', call: 'Number that calls' },
    taken: {
      sms: 'This number already has an SMS PIN in this organization: change the one there is.',
      call: 'This number already has a call PIN in this organization: change the one there is.',
    },
    edit: { sms: (n: string) => `Change the SMS PIN of ${n}`, call: (n: string) => `Change the call PIN of ${n}` },
    remove: { sms: (n: string) => `Remove the SMS PIN of ${n}`, call: (n: string) => `Remove the call PIN of ${n}` },
    removeConfirm: (n: string) => `Remove the PIN of ${n}? No alarm will come from this number any more.`,
    numberHint: 'International, e.g. +49 171 1234567',
    pin: { sms: 'PIN in the SMS text', call: 'PIN the caller types' },
    pinHint: '4 to 8 digits',
    pinShown: (pin: string) => `PIN ${pin}`,
    templateShown: (name: string) => `Template: ${name}`,
    templateGone: 'Template deleted: the alarm is called "Alarm per Telefon"',
    noTemplates: 'A call PIN needs an alarm template, and the organization has none yet. Create one first:',
    change: 'Change',
    save: 'Save',
    cancel: 'Cancel',
    saved: 'Saved.',
    created: 'Created.',
    readOnly: 'Only admins create and change PINs.',
  },
);

/** A configuration as S1/C1 list it. */
interface PinConfig {
  id: number;
  gsm: string;
  organizationID: number;
  pin: string;
  alarmTemplateID?: number;
}

interface Values {
  gsm: string;
  pin: string;
  template: string;
}

/** The fields of one configuration, new or changed; `save` sends them and throws the API's refusal. */
function PinForm({
  channel,
  prefix,
  initial,
  templates,
  preset,
  submitLabel,
  save,
  onCancel,
}: {
  channel: Channel;
  prefix: string;
  initial: Values;
  templates: Template[];
  /** A template just created: chosen at once. */
  preset?: string;
  submitLabel: string;
  save(body: { gsm: string; pin: string; alarmTemplateID?: number }): Promise<void>;
  onCancel?(): void;
}) {
  const [gsm, setGsm] = useState(initial.gsm);
  const [pin, setPin] = useState(initial.pin);
  const [template, setTemplate] = useState(initial.template);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  useEffect(() => {
    if (preset) setTemplate(preset);
  }, [preset]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      await save({
        gsm: typedNumber(gsm),
        pin: pin.trim(),
        ...(channel === 'call' && template && { alarmTemplateID: Number(template) }),
      });
      if (!onCancel) {
        setGsm('');
        setPin('');
      }
    } catch (err) {
      setProblems(channelProblems(err, ['gsm', 'pin', 'alarmTemplateID'], w.taken[channel]));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="stack" onSubmit={submit} noValidate>
      <div class="channels-fields">
        <Field
          id={`${prefix}-gsm`}
          label={w.number[channel]}
          hint={w.numberHint}
          type="tel"
          autoComplete="off"
          maxLength={24}
          value={gsm}
          set={setGsm}
          problem={problems.gsm}
        />
        <Field
          id={`${prefix}-pin`}
          label={w.pin[channel]}
          hint={w.pinHint}
          inputMode="numeric"
          maxLength={8}
          value={pin}
          set={setPin}
          problem={problems.pin}
        />
      </div>
      {channel === 'call' && (
        <TemplateSelect
          id={`${prefix}-template`}
          templates={templates}
          value={template}
          set={setTemplate}
          problem={problems.alarmTemplateID}
        />
      )}
      <Problem text={problems.form ?? null} />
      <div class="row wrap">
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : submitLabel}
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

export function PinSection({
  channel,
  organizationId,
  admin,
  round,
}: {
  channel: Channel;
  organizationId: number;
  admin: boolean;
  /** Grows with every hub connection: read again. */
  round: number;
}) {
  const [configs, setConfigs] = useState<PinConfig[] | null>(null);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [templatesRead, setTemplatesRead] = useState(channel === 'sms');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [preset, setPreset] = useState<string | undefined>(undefined);

  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const found = await reads(() =>
        Promise.all([
          api<PinConfig[]>('GET', `/${channel}/alarming?organization_id=${organizationId}`),
          channel === 'call'
            ? api<Template[]>('GET', `/alarm-templates?organization_id=${organizationId}`)
            : Promise.resolve([]),
        ]),
      );
      if (!found) return;
      const [list, made] = found;
      setConfigs(list);
      setTemplates(made);
      setTemplatesRead(true);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [channel, organizationId]);
  useEffect(() => void load(), [load, round]);

  const create = async (body: { gsm: string; pin: string; alarmTemplateID?: number }) => {
    setNotice(null);
    await api('POST', `/${channel}/alarming`, { organizationID: organizationId, ...body });
    setNotice(w.created);
    await load();
  };
  const update = (config: PinConfig) => async (body: { gsm: string; pin: string; alarmTemplateID?: number }) => {
    setNotice(null);
    await api('PUT', `/${channel}/alarming`, { id: config.id, ...body });
    setEditing(null);
    setNotice(w.saved);
    await load();
  };
  const remove = async (config: PinConfig) => {
    if (!confirm(w.removeConfirm(shownNumber(config.gsm)))) return;
    setProblem(null);
    setNotice(null);
    try {
      await api('DELETE', `/${channel}/alarming/${config.id}`);
    } catch (err) {
      setProblem(explain(err));
    }
    await load();
  };
  const templateOf = (config: PinConfig) => {
    const found = templates.find((tp) => tp.id === config.alarmTemplateID);
    return found ? w.templateShown(templateLabel(found)) : w.templateGone;
  };

  const heading = `pins-${channel}`;
  return (
    <section aria-labelledby={heading} class="channels-section">
      <h2 id={heading}>{w.title[channel]}</h2>
      <p class="hint">{w.lead[channel]}</p>
      <Problem text={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {configs === null ? (
        <p aria-busy="true">{t.loading}</p>
      ) : configs.length === 0 ? (
        <p class="hint">{w.none[channel]}</p>
      ) : (
        <ul class="list">
          {configs.map((config) =>
            editing === config.id ? (
              <li key={config.id} class="column">
                <PinForm
                  channel={channel}
                  prefix={`${channel}-pin-${config.id}`}
                  initial={{
                    gsm: shownNumber(config.gsm),
                    pin: config.pin,
                    template: String(config.alarmTemplateID ?? ''),
                  }}
                  templates={templates}
                  submitLabel={w.save}
                  save={update(config)}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={config.id}>
                <div>
                  <strong class="channels-number">{shownNumber(config.gsm)}</strong>
                  <span class="meta">
                    {w.pinShown(config.pin)}
                    {channel === 'call' && ` · ${templateOf(config)}`}
                  </span>
                </div>
                {admin && (
                  <div class="row">
                    <button
                      class="button small secondary"
                      type="button"
                      aria-label={w.edit[channel](shownNumber(config.gsm))}
                      onClick={() => setEditing(config.id)}
                    >
                      {w.change}
                    </button>
                    <button
                      class="button small danger"
                      type="button"
                      aria-label={w.remove[channel](shownNumber(config.gsm))}
                      onClick={() => remove(config)}
                    >
                      ✕
                    </button>
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {!admin && <p class="hint">{w.readOnly}</p>}
      {admin && templatesRead && (
        <>
          {channel === 'call' && templates.length === 0 && <p class="hint">{w.noTemplates}</p>}
          {(channel === 'sms' || templates.length > 0) && (
            <>
              <h3 id={`${heading}-new`}>{w.newTitle[channel]}</h3>
              <PinForm
                channel={channel}
                prefix={`${channel}-pin-new`}
                initial={{ gsm: '', pin: '', template: templates.length === 1 ? String(templates[0].id) : '' }}
                templates={templates}
                preset={preset}
                submitLabel={w.create[channel]}
                save={create}
              />
            </>
          )}
          {/* After the form, so that it stays the same element once the first template exists. */}
          {channel === 'call' && (
            <NewTemplate
              organizationId={organizationId}
              startOpen={templates.length === 0}
              onCreated={(made) => {
                setTemplates((known) => [...known, made]);
                setPreset(String(made.id));
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
