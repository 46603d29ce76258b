// /console/inputs/<id>: one alarm input (IP3) — whether it is on, when it last received something and its
// last error, its settings (changed or deleted by admins), how documents reach it, "Ausprobieren" (IP5)
// and what it received (IP6). The hub sends no event for inputs: an alarm an input raised or merged
// (alarm:created / alarm:updated with source "input") reads the input and its documents again (useFollow),
// as does each connection; documents ignored or failed appear then or with "Neu lesen".
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AlarmView } from '../../../schemas/alarms.js';
import { api, ApiError } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { t } from '../i18n.js';
import type { Organization } from '../session.js';
import { Problem, explain } from '../ui.js';
import { DocumentsSection, useFollow, useNow } from './inputs-documents.js';
import { InputForm } from './inputs-form.js';
import { PROFILE_FIELDS, type Input, type InputDocument, type PagerCode } from './inputs-model.js';
import { TrySection } from './inputs-try.js';
import { ago, reasonInWords, w } from './inputs-words.js';

/** Whether it is on, when it last received something, its last error. */
export function InputState({ input, now }: { input: Input; now: number }) {
  return (
    <>
      <span class="meta">
        {w.kind[input.kind]} · {input.lastReceivedAt ? w.lastReceived(ago(input.lastReceivedAt, now)) : w.neverReceived}
      </span>
      {input.lastError && <span class="inputs-error">{w.lastError(reasonInWords(input.lastError))}</span>}
    </>
  );
}

export const OnOff = ({ active }: { active: boolean }) => (
  <span class={`badge ${active ? 'yes' : 'inputs-off'}`}>{active ? w.on : w.off}</span>
);

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="inputs-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const codeText = (c: PagerCode) =>
  `${c.zvei ? `ZVEI ${c.zvei}` : `RIC ${c.ric}${c.subric ? `/${c.subric}` : ''}`} → ${c.event ?? `#${c.templateId}`}`;

/** The input's settings as they are stored. */
function Settings({ input, monitors }: { input: Input; monitors: Array<{ id: number; name: string }> }) {
  const s = input.settings as {
    host?: string;
    port?: number;
    tls?: boolean;
    user?: string;
    password?: string;
    folder?: string;
    allowedSenders?: string[];
    codes?: PagerCode[];
    vehicles?: Array<{ fms: string; name: string }>;
  };
  const fields = PROFILE_FIELDS.filter((f) => input.profile?.fields[f]);
  const channelName = (c: string) => (c === 'app' ? t.channelApp : c === 'sms' ? t.channelSms : t.channelCall);
  return (
    <>
      <dl class="inputs-facts">
        {input.kind === 'imap' && (
          <>
            <Fact label={w.host}>
              {s.host}:{s.port} · {s.tls ? w.tls : w.noTls}
            </Fact>
            <Fact label={w.user}>{s.user}</Fact>
            <Fact label={w.password}>{s.password}</Fact>
            <Fact label={w.folder}>{s.folder}</Fact>
            <Fact label={w.sendersShown}>{(s.allowedSenders ?? []).join(', ')}</Fact>
          </>
        )}
        {input.kind === 'pager' && (
          <>
            <Fact label={w.pagerCodes}>{(s.codes ?? []).map(codeText).join('; ') || w.dash}</Fact>
            <Fact label={w.vehicles}>{(s.vehicles ?? []).map((v) => `${v.fms} ${v.name}`).join('; ') || w.dash}</Fact>
          </>
        )}
        <Fact label={w.channels}>{input.channels ? input.channels.map(channelName).join(', ') : w.everyChannel}</Fact>
        <Fact label={w.monitors}>
          {input.monitorIds
            ? input.monitorIds.map((id) => monitors.find((m) => m.id === id)?.name ?? `#${id}`).join(', ') || w.dash
            : w.everyMonitor}
        </Fact>
      </dl>
      {fields.length > 0 && (
        <details class="inputs-text">
          <summary>{w.profileSummary(fields.length)}</summary>
          <dl class="inputs-facts">
            {fields.map((f) => (
              <Fact key={f} label={w.field[f]}>
                <code class="inputs-code">{input.profile?.fields[f]}</code>
              </Fact>
            ))}
          </dl>
        </details>
      )}
    </>
  );
}

/** Where a fax machine or script sends documents, with the command that does it. */
function HowToSend({ input, admin }: { input: Input; admin: boolean }) {
  const url = `${location.origin}/api/v1/inputs/${input.id}/documents`;
  return (
    <section aria-labelledby="input-send" class="inputs-section">
      <h2 id="input-send">{w.sendTitle}</h2>
      {input.kind === 'pager' ? (
        <p class="hint">{w.pagerLead}</p>
      ) : input.kind === 'imap' ? (
        <p class="hint">{w.kindWhat.imap}</p>
      ) : (
        <>
          <p class="hint">{w.sendLead}</p>
          <pre class="inputs-command">
            {`curl -H "API-TOKEN: …" -H "Content-Type: application/pdf" \\\n  --data-binary @fax.pdf ${url}`}
          </pre>
          {admin && <a href={`/console/keys${location.search}`}>{w.sendKeys}</a>}
        </>
      )}
    </section>
  );
}

export function InputPage({
  organization,
  inputId,
  onTitle,
}: {
  organization: Organization;
  inputId: number;
  onTitle: (title: string) => void;
}) {
  const admin = organization.role === 'admin';
  const [input, setInput] = useState<Input | null>(null);
  const [documents, setDocuments] = useState<InputDocument[] | null>(null);
  const [monitors, setMonitors] = useState<Array<{ id: number; name: string }>>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [documentsProblem, setDocumentsProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const now = useNow();

  // A read that a newer one overtook gives null: its answer is not shown (console/src/fresh.ts).
  const inputReads = useNewest();
  const documentReads = useNewest();
  const loadInput = useCallback(async () => {
    try {
      const found = await inputReads(() => api<Input>('GET', `/inputs/${inputId}`));
      if (!found) return null;
      setInput(found);
      setProblem(null);
      onTitle(found.name);
      return found;
    } catch (err) {
      setProblem(err instanceof ApiError && err.status === 404 ? w.notFound : explain(err));
      return null;
    }
  }, [inputId]);
  const loadDocuments = useCallback(async () => {
    try {
      const found = await documentReads(() => api<InputDocument[]>('GET', `/inputs/${inputId}/documents`));
      if (!found) return null;
      setDocuments(found);
      setDocumentsProblem(null);
      return found;
    } catch (err) {
      setDocumentsProblem(explain(err));
      return null;
    }
  }, [inputId]);
  // A document is listed a moment before its input's lastReceivedAt is set: read until both agree.
  const readAll = useCallback(async () => {
    const [found, received] = await Promise.all([loadInput(), loadDocuments()]);
    if (!found || !received) return null;
    if (received[0] && received[0].receivedAt !== found.lastReceivedAt) return null;
    return `${received.length}:${received[0]?.id ?? ''}`;
  }, [loadInput, loadDocuments]);
  const { load: again, follow } = useFollow(readAll);
  useEffect(() => void again(), [again]);
  useEffect(() => {
    api<Array<{ id: number; name: string }>>('GET', `/monitor?organization=${organization.id}`).then(setMonitors, () =>
      setMonitors([]),
    );
  }, [organization.id]);
  const alarmed = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (alarm.organizationId === organization.id && alarm.source === 'input') follow();
    },
    [organization.id, follow],
  );
  useHubEvent('alarm:created', alarmed, again);
  useHubEvent('alarm:updated', alarmed, again);

  const remove = async () => {
    if (!input || !confirm(w.removeConfirm(input.name))) return;
    setProblem(null);
    try {
      await api('DELETE', `/inputs/${input.id}`);
      location.assign(`/console/inputs${location.search}`);
    } catch (err) {
      setProblem(explain(err));
    }
  };

  const back = (
    <p>
      <a href={`/console/inputs${location.search}`}>← {w.backToInputs}</a>
    </p>
  );
  if (!input)
    return problem ? (
      <>
        <Problem text={problem} />
        {back}
      </>
    ) : (
      <p aria-busy="true">{t.loading}</p>
    );

  return (
    <>
      {back}
      <div class="row spread inputs-head">
        <div class="inputs-state">
          <InputState input={input} now={now} />
        </div>
        <OnOff active={input.active} />
      </div>
      <Problem text={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}

      <section aria-labelledby="input-settings" class="inputs-section">
        <h2 id="input-settings">{w.settings}</h2>
        {editing ? (
          <InputForm
            organization={organization}
            input={input}
            onCancel={() => setEditing(false)}
            onDone={(saved) => {
              setInput(saved);
              onTitle(saved.name);
              setEditing(false);
              setNotice(w.saved);
            }}
          />
        ) : (
          <>
            <Settings input={input} monitors={monitors} />
            {admin ? (
              <div class="row wrap">
                <button
                  class="button secondary"
                  type="button"
                  onClick={() => {
                    setNotice(null);
                    setEditing(true);
                  }}
                >
                  {w.edit}
                </button>
                <button class="button danger" type="button" onClick={remove}>
                  {w.remove}
                </button>
              </div>
            ) : (
              <p class="hint">{w.readOnly}</p>
            )}
          </>
        )}
      </section>

      {input.kind !== 'pager' && admin && <TrySection key={input.id} input={input} />}
      {input.kind === 'pager' && admin && <p class="hint">{w.tryPagerNo}</p>}
      {input.kind !== 'pager' && !admin && <p class="hint">{w.tryAdminsOnly}</p>}
      <HowToSend input={input} admin={admin} />
      <DocumentsSection documents={documents} problem={documentsProblem} onReload={() => void loadDocuments()} />
    </>
  );
}
