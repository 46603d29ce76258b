// Creating (IP1) and changing (IP3 PUT) an alarm input: its name and kind, the kind's settings (the
// mailbox with its password and allowed senders; the pager codes and FMS vehicles as rows), the profile
// as one expression per field with the example for a Leitstelle's fax, where the alarm goes, and whether
// it is on. A refusal's details are shown at the field they name (`profile.fields.event`, `settings.codes.2`).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n.js';
import type { Organization } from '../session.js';
import { Problem, explain } from '../ui.js';
import {
  CHANNELS,
  EXAMPLE_PROFILE,
  KINDS,
  PROFILE_FIELDS,
  blankCode,
  blankVehicle,
  bodyOf,
  draftOf,
  problemsAt,
  type Channel,
  type CodeDraft,
  type Draft,
  type Input,
  type Kind,
  type VehicleDraft,
} from './inputs-model.js';
import { w } from './inputs-words.js';

const SUBRICS = ['a', 'b', 'c', 'd', '1', '2', '3', '4'];
const channelName = (c: Channel) => (c === 'app' ? t.channelApp : c === 'sms' ? t.channelSms : t.channelCall);

/** A refusal's problem in words, by the path it names. */
function say(path: string, problem: string): string {
  const [head, part, rest] = path.split('.');
  if (/^is no regular expression: /.test(problem))
    return w.regexProblem(problem.replace(/^is no regular expression: /, ''));
  if (head === 'profile' && (rest === 'event' || part === undefined)) return w.eventRequired;
  if (head === 'name') return w.nameProblem;
  if (head === 'settings') {
    if (part === 'host' && problem !== 'is required') return w.hostProblem;
    if (part === 'port') return w.portProblem;
    if (part === 'allowedSenders') return rest === undefined ? w.sendersRequired : w.senderProblem;
    if (part === 'codes') return w.codeProblem;
    if (part === 'vehicles') return w.vehicleProblem;
  }
  if (problem === 'is required' || problem.startsWith('must NOT have fewer')) return w.required;
  if (problem.startsWith('must NOT have more')) return w.tooLong;
  return problem;
}

/** A labelled input with its hint and problem, tied to it for a screen reader. */
function Text({
  id,
  label,
  value,
  set,
  hint,
  problem,
  type = 'text',
  mono = false,
  maxLength = 500,
  autoComplete = 'off',
  inputMode,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  set(value: string): void;
  hint?: string;
  problem?: string;
  type?: string;
  mono?: boolean;
  maxLength?: number;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  placeholder?: string;
}) {
  const described = [hint && `${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ');
  return (
    <div class="inputs-field">
      <label for={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} class="meta">
          {hint}
        </span>
      )}
      <input
        id={id}
        class={mono ? 'inputs-regex' : undefined}
        type={type}
        value={value}
        maxLength={maxLength}
        autoComplete={autoComplete}
        spellcheck={mono ? false : undefined}
        inputMode={inputMode}
        placeholder={placeholder}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      {problem && (
        <span id={`${id}-problem`} class="field-problem" data-testid="field-problem">
          {problem}
        </span>
      )}
    </div>
  );
}

/** The organization's monitors (F list), for choosing where the alarm shows. */
function useMonitors(organizationId: number) {
  const [monitors, setMonitors] = useState<Array<{ id: number; name: string }> | null>(null);
  useEffect(() => {
    api<Array<{ id: number; name: string }>>('GET', `/monitor?organization=${organizationId}`).then(setMonitors, () =>
      setMonitors([]),
    );
  }, [organizationId]);
  return monitors;
}

/** Ticks for a set where all ticked means null ("every one, also later ones"). */
function Choices<T extends string | number>({
  legend,
  hint,
  all,
  picked,
  label,
  set,
  problem,
  id,
}: {
  legend: string;
  hint: string;
  all: T[];
  picked: T[] | null;
  label: (value: T) => string;
  set(picked: T[] | null): void;
  problem?: string;
  id: string;
}) {
  const now = picked ?? all;
  const toggle = (value: T, on: boolean) => {
    const next = on ? [...now, value] : now.filter((v) => v !== value);
    set(all.every((v) => next.includes(v)) ? null : all.filter((v) => next.includes(v)));
  };
  return (
    <fieldset class="choices" aria-describedby={`${id}-hint`}>
      <legend>{legend}</legend>
      {all.map((value) => (
        <label key={value} class="choice">
          <input
            type="checkbox"
            checked={now.includes(value)}
            onChange={(e) => toggle(value, (e.target as HTMLInputElement).checked)}
          />
          {label(value)}
        </label>
      ))}
      <span id={`${id}-hint`} class="meta inputs-choices-hint">
        {hint}
      </span>
      {problem && <span class="field-problem">{problem}</span>}
    </fieldset>
  );
}

function CodeRows({
  prefix,
  codes,
  set,
  problems,
}: {
  prefix: string;
  codes: CodeDraft[];
  set(codes: CodeDraft[]): void;
  problems: Record<string, string>;
}) {
  const change = (key: number, patch: Partial<CodeDraft>) =>
    set(codes.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  return (
    <fieldset class="inputs-group">
      <legend>{w.pagerCodes}</legend>
      <p class="hint">{w.pagerCodesLead}</p>
      {codes.length === 0 && <p class="hint">{w.noCodes}</p>}
      <ol class="inputs-rows">
        {codes.map((c, index) => {
          const n = index + 1;
          const id = `${prefix}-code-${c.key}`;
          const problem = problems[`settings.codes.${index}`];
          return (
            <li key={c.key} class="inputs-row-item">
              <div class="inputs-row">
                <div class="inputs-field inputs-narrow">
                  <label for={`${id}-type`}>{w.codeType(n)}</label>
                  <select
                    id={`${id}-type`}
                    value={c.type}
                    onChange={(e) =>
                      change(c.key, { type: (e.target as HTMLSelectElement).value as CodeDraft['type'] })
                    }
                  >
                    <option value="ric">RIC (POCSAG)</option>
                    <option value="zvei">ZVEI</option>
                  </select>
                </div>
                <Text
                  id={`${id}-code`}
                  label={w.code(n)}
                  hint={w.codeHint[c.type]}
                  inputMode="numeric"
                  maxLength={7}
                  value={c.code}
                  set={(code) => change(c.key, { code })}
                  problem={problem}
                />
                {c.type === 'ric' && (
                  <div class="inputs-field inputs-narrow">
                    <label for={`${id}-subric`}>{w.subric(n)}</label>
                    <select
                      id={`${id}-subric`}
                      value={c.subric}
                      onChange={(e) => change(c.key, { subric: (e.target as HTMLSelectElement).value })}
                    >
                      <option value="">{w.subricAny}</option>
                      {SUBRICS.map((s) => (
                        <option key={s} value={s}>
                          {s}
                        </option>
                      ))}
                    </select>
                  </div>
                )}
              </div>
              <div class="inputs-row">
                <Text
                  id={`${id}-event`}
                  label={c.templateId !== undefined && !c.event ? w.codeTemplate(c.templateId) : w.codeEvent(n)}
                  value={c.event}
                  set={(event) => change(c.key, { event })}
                />
                <Text
                  id={`${id}-message`}
                  label={w.codeMessage(n)}
                  maxLength={10_000}
                  value={c.message}
                  set={(message) => change(c.key, { message })}
                />
                <button
                  type="button"
                  class="button small danger inputs-remove"
                  aria-label={w.removeCode(n)}
                  title={w.removeCode(n)}
                  onClick={() => set(codes.filter((x) => x.key !== c.key))}
                >
                  ✕
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" class="button secondary" onClick={() => set([...codes, blankCode()])}>
        {w.addCode}
      </button>
    </fieldset>
  );
}

function VehicleRows({
  prefix,
  vehicles,
  set,
  problems,
}: {
  prefix: string;
  vehicles: VehicleDraft[];
  set(vehicles: VehicleDraft[]): void;
  problems: Record<string, string>;
}) {
  const change = (key: number, patch: Partial<VehicleDraft>) =>
    set(vehicles.map((v) => (v.key === key ? { ...v, ...patch } : v)));
  return (
    <fieldset class="inputs-group">
      <legend>{w.vehicles}</legend>
      <p class="hint">{w.vehiclesLead}</p>
      {vehicles.length === 0 && <p class="hint">{w.noVehicles}</p>}
      <ol class="inputs-rows">
        {vehicles.map((v, index) => {
          const n = index + 1;
          const id = `${prefix}-vehicle-${v.key}`;
          return (
            <li key={v.key} class="inputs-row-item">
              <div class="inputs-row">
                <Text
                  id={`${id}-fms`}
                  label={w.fms(n)}
                  hint={w.fmsHint}
                  maxLength={8}
                  mono
                  value={v.fms}
                  set={(fms) => change(v.key, { fms })}
                  problem={problems[`settings.vehicles.${index}`]}
                />
                <Text
                  id={`${id}-name`}
                  label={w.vehicleName(n)}
                  maxLength={100}
                  value={v.name}
                  set={(name) => change(v.key, { name })}
                />
                <button
                  type="button"
                  class="button small danger inputs-remove"
                  aria-label={w.removeVehicle(n)}
                  title={w.removeVehicle(n)}
                  onClick={() => set(vehicles.filter((x) => x.key !== v.key))}
                >
                  ✕
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" class="button secondary" onClick={() => set([...vehicles, blankVehicle()])}>
        {w.addVehicle}
      </button>
    </fieldset>
  );
}

export function InputForm({
  organization,
  input,
  onDone,
  onCancel,
}: {
  organization: Organization;
  input?: Input;
  onDone: (input: Input) => void;
  onCancel?: () => void;
}) {
  const [d, setDraft] = useState<Draft>(() => draftOf(input));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const monitors = useMonitors(organization.id);
  const prefix = input ? `input-${input.id}` : 'input-new';
  const set = (patch: Partial<Draft>) => setDraft((now) => ({ ...now, ...patch }));
  const setField = (field: string, value: string) =>
    setDraft((now) => ({ ...now, profile: { ...now.profile, [field]: value } }));

  const known = (key: string) =>
    ['name', 'kind', 'active', 'channels', 'monitorIds', 'profile'].includes(key) ||
    /^settings\.(host|port|tls|user|password|folder|allowedSenders)$/.test(key) ||
    /^settings\.(codes|vehicles)\.\d+$/.test(key) ||
    /^profile\.fields\.[a-zA-Z]+$/.test(key);

  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    setBusy(true);
    try {
      const body = bodyOf(d, organization.id, Boolean(input));
      const saved = input
        ? await api<Input>('PUT', `/inputs/${input.id}`, body)
        : await api<Input>('POST', '/inputs', body);
      if (!input) setDraft(draftOf());
      onDone(saved);
    } catch (err) {
      const at = problemsAt(err, known, say) ?? { form: explain(err) };
      // A profile refused as a whole (none sent) is the keyword's problem.
      if (at.profile) {
        at['profile.fields.event'] ??= at.profile;
        delete at.profile;
      }
      setProblems(at);
    } finally {
      setBusy(false);
    }
  };

  const example = () => {
    if (PROFILE_FIELDS.some((f) => d.profile[f].trim()) && !confirm(w.exampleConfirm)) return;
    set({ profile: { ...EXAMPLE_PROFILE } });
  };

  return (
    <form class="stack inputs-form" onSubmit={submit} noValidate>
      <Text
        id={`${prefix}-name`}
        label={w.name}
        placeholder={w.nameHint}
        maxLength={100}
        value={d.name}
        set={(name) => set({ name })}
        problem={problems.name}
      />
      {input ? (
        <p>
          <strong>{w.kindLabel}:</strong> {w.kind[d.kind]} <span class="meta">({w.kindFixed})</span>
        </p>
      ) : (
        <div class="inputs-field">
          <label for={`${prefix}-kind`}>{w.kindLabel}</label>
          <select
            id={`${prefix}-kind`}
            value={d.kind}
            aria-describedby={`${prefix}-kind-what`}
            onChange={(e) => set({ kind: (e.target as HTMLSelectElement).value as Kind })}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {w.kind[k]}
              </option>
            ))}
          </select>
          <span id={`${prefix}-kind-what`} class="meta">
            {w.kindWhat[d.kind]}
          </span>
        </div>
      )}

      {d.kind === 'imap' && (
        <fieldset class="inputs-group">
          <legend>{w.imapTitle}</legend>
          <div class="inputs-grid">
            <Text
              id={`${prefix}-host`}
              label={w.host}
              placeholder={w.hostHint}
              maxLength={253}
              value={d.host}
              set={(host) => set({ host })}
              problem={problems['settings.host']}
            />
            <Text
              id={`${prefix}-port`}
              label={w.port}
              hint={w.portHint}
              inputMode="numeric"
              maxLength={5}
              value={d.port}
              set={(port) => set({ port })}
              problem={problems['settings.port']}
            />
            <Text
              id={`${prefix}-user`}
              label={w.user}
              maxLength={254}
              value={d.user}
              set={(user) => set({ user })}
              problem={problems['settings.user']}
            />
            <Text
              id={`${prefix}-password`}
              label={w.password}
              hint={input ? w.passwordKeep : w.passwordNew}
              type="password"
              autoComplete="new-password"
              maxLength={1000}
              placeholder={input ? '********' : undefined}
              value={d.password}
              set={(password) => set({ password })}
              problem={problems['settings.password']}
            />
            <Text
              id={`${prefix}-folder`}
              label={w.folder}
              placeholder={w.folderHint}
              maxLength={200}
              value={d.folder}
              set={(folder) => set({ folder })}
              problem={problems['settings.folder']}
            />
          </div>
          <label class="choice">
            <input
              type="checkbox"
              checked={d.tls}
              onChange={(e) => set({ tls: (e.target as HTMLInputElement).checked })}
            />
            {w.tls}
          </label>
          <div class="inputs-field">
            <label for={`${prefix}-senders`}>{w.senders}</label>
            <span id={`${prefix}-senders-hint`} class="meta">
              {w.sendersHint}
            </span>
            <textarea
              id={`${prefix}-senders`}
              rows={3}
              value={d.senders}
              spellcheck={false}
              aria-invalid={problems['settings.allowedSenders'] ? true : undefined}
              aria-describedby={[
                `${prefix}-senders-hint`,
                problems['settings.allowedSenders'] && `${prefix}-senders-problem`,
              ]
                .filter(Boolean)
                .join(' ')}
              onInput={(e) => set({ senders: (e.target as HTMLTextAreaElement).value })}
            />
            {problems['settings.allowedSenders'] && (
              <span id={`${prefix}-senders-problem`} class="field-problem" data-testid="field-problem">
                {problems['settings.allowedSenders']}
              </span>
            )}
          </div>
        </fieldset>
      )}

      {d.kind === 'pager' && (
        <>
          <CodeRows prefix={prefix} codes={d.codes} set={(codes) => set({ codes })} problems={problems} />
          <VehicleRows
            prefix={prefix}
            vehicles={d.vehicles}
            set={(vehicles) => set({ vehicles })}
            problems={problems}
          />
        </>
      )}

      {d.kind !== 'pager' && (
        <fieldset class="inputs-group">
          <legend>{w.profileTitle}</legend>
          <p class="hint">{w.profileLead}</p>
          <div class="inputs-example">
            <button
              type="button"
              class="button secondary"
              aria-describedby={`${prefix}-example-what`}
              onClick={example}
            >
              {w.example}
            </button>
            <span id={`${prefix}-example-what`} class="meta">
              {w.exampleLead}
            </span>
          </div>
          {PROFILE_FIELDS.map((f) => (
            <Text
              key={f}
              id={`${prefix}-profile-${f}`}
              label={f === 'event' ? w.eventLabel : w.field[f]}
              hint={w.fieldWhat[f]}
              mono
              value={d.profile[f]}
              set={(value) => setField(f, value)}
              problem={problems[`profile.fields.${f}`]}
            />
          ))}
        </fieldset>
      )}

      <fieldset class="inputs-group">
        <legend>{w.delivery}</legend>
        <Choices
          id={`${prefix}-channels`}
          legend={w.channels}
          hint={w.channelsAll}
          all={[...CHANNELS]}
          picked={d.channels}
          label={channelName}
          set={(channels) => set({ channels })}
          problem={problems.channels}
        />
        {monitors === null ? null : monitors.length === 0 ? (
          <p class="hint">{w.noMonitors}</p>
        ) : (
          <Choices
            id={`${prefix}-monitors`}
            legend={w.monitors}
            hint={w.monitorsAll}
            all={monitors.map((m) => m.id)}
            picked={d.monitorIds}
            label={(id) => monitors.find((m) => m.id === id)?.name ?? String(id)}
            set={(monitorIds) => set({ monitorIds })}
            problem={problems.monitorIds}
          />
        )}
      </fieldset>

      <div class="row inputs-active">
        <input
          id={`${prefix}-active`}
          class="channels-switch"
          type="checkbox"
          role="switch"
          checked={d.active}
          aria-describedby={`${prefix}-active-hint`}
          onChange={(e) => set({ active: (e.target as HTMLInputElement).checked })}
        />
        <div class="inputs-field">
          <label for={`${prefix}-active`}>{w.active}</label>
          <span id={`${prefix}-active-hint`} class="meta">
            {w.activeHint}
          </span>
        </div>
      </div>

      <Problem text={problems.form ?? null} />
      <div class="row wrap">
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : input ? w.save : w.create}
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
