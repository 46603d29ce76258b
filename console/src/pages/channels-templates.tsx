// The alarm template a call PIN raises (C3 requires one; docs/api.md "Alarm templates (TP1–TP3)"):
// picked from the organization's templates, or made right here with the two fields a template needs.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { t, words } from '../i18n.js';
import { Problem } from '../ui.js';
import { Field, channelProblems } from './channels-common.js';

const w = words(
  {
    template: 'Alarmvorlage',
    templateHint: 'Was der Alarm zeigt, den ein Anruf mit dieser PIN auslöst.',
    pick: 'Bitte wählen',
    newTitle: 'Alarmvorlage anlegen',
    newLead: 'Eine Vorlage sagt, welches Stichwort der Alarm zeigt. Er geht über alle Wege an alle Monitore.',
    newOpen: 'Neue Alarmvorlage',
    name: 'Name der Vorlage',
    nameHint: 'z. B. „Vollalarm“',
    event: 'Stichwort des Alarms',
    eventHint: 'z. B. „Vollalarm Feuerwehr“',
    create: 'Vorlage anlegen',
    cancel: 'Abbrechen',
    created: (name: string) => `Vorlage „${name}“ angelegt.`,
  },
  {
    template: 'Alarm template',
    templateHint: 'What the alarm shows that a call with this PIN raises.',
    pick: 'Please pick one',
    newTitle: 'Create an alarm template',
    newLead: 'A template says which keyword the alarm shows. It goes by every channel to every monitor.',
    newOpen: 'New alarm template',
    name: 'Template name',
    nameHint: 'e.g. "Full alarm"',
    event: "The alarm's keyword",
    eventHint: 'e.g. "Full alarm fire service"',
    create: 'Create template',
    cancel: 'Cancel',
    created: (name: string) => `Template "${name}" created.`,
  },
);

/** An alarm template as TP2 lists it (the fields this page uses). */
export interface Template {
  id: number;
  name: string;
  event: string;
}

/** How a template is named in a choice: its name, and its keyword when that says more. */
export const templateLabel = (template: Template) =>
  template.event && template.event !== template.name ? `${template.name} – ${template.event}` : template.name;

/** The choice of a template for a call PIN. */
export function TemplateSelect({
  id,
  templates,
  value,
  set,
  problem,
}: {
  id: string;
  templates: Template[];
  value: string;
  set(value: string): void;
  problem?: string;
}) {
  const described = [`${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ');
  return (
    <div class="channels-field">
      <label for={id}>{w.template}</label>
      <span id={`${id}-hint`} class="meta">
        {w.templateHint}
      </span>
      <select
        id={id}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described}
        onChange={(e) => set((e.target as HTMLSelectElement).value)}
      >
        <option value="">{w.pick}</option>
        {templates.map((template) => (
          <option key={template.id} value={String(template.id)}>
            {templateLabel(template)}
          </option>
        ))}
      </select>
      {problem && (
        <span id={`${id}-problem`} class="field-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * A new template with its name and keyword (TP1's required fields; channels and monitors: all). Open
 * from the start when the organization has none, else behind a button.
 */
export function NewTemplate({
  organizationId,
  startOpen,
  onCreated,
}: {
  organizationId: number;
  startOpen: boolean;
  onCreated(template: Template): void;
}) {
  const [open, setOpen] = useState(startOpen);
  const [name, setName] = useState('');
  const [event, setEvent] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  // The last template gone (removed elsewhere): the way to make one is open again.
  useEffect(() => {
    if (startOpen) setOpen(true);
  }, [startOpen]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    setNotice(null);
    try {
      const made = await api<Template>('POST', '/alarm-templates', {
        organizationID: organizationId,
        name: name.trim(),
        event: event.trim(),
      });
      setNotice(w.created(made.name));
      setName('');
      setEvent('');
      setOpen(false);
      onCreated(made);
    } catch (err) {
      setProblems(channelProblems(err, ['name', 'event']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="channels-template">
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {open ? (
        <form class="stack" onSubmit={submit} noValidate aria-labelledby="new-template-title">
          <h3 id="new-template-title">{w.newTitle}</h3>
          <p class="hint">{w.newLead}</p>
          <div class="channels-fields">
            <Field
              id="template-name"
              label={w.name}
              hint={w.nameHint}
              value={name}
              set={setName}
              problem={problems.name}
            />
            <Field
              id="template-event"
              label={w.event}
              hint={w.eventHint}
              value={event}
              set={setEvent}
              maxLength={500}
              problem={problems.event}
            />
          </div>
          <Problem text={problems.form ?? null} />
          <div class="row wrap">
            <button class="button" type="submit" disabled={busy} aria-busy={busy}>
              {busy ? t.loading : w.create}
            </button>
            {!startOpen && (
              <button class="button secondary" type="button" onClick={() => setOpen(false)}>
                {w.cancel}
              </button>
            )}
          </div>
        </form>
      ) : (
        <button class="button secondary" type="button" onClick={() => setOpen(true)}>
          {w.newOpen}
        </button>
      )}
    </div>
  );
}
