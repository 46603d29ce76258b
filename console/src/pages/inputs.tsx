// /console/inputs: the organization's alarm inputs (IP2; CONTRACT §12) — the e-mail mailboxes, document
// uploads (fax, scan) and pager codes that turn what the dispatch centre sends into alarms — each with
// its kind, whether it is on, when it last received something and its last error; for admins a new one
// (IP1, inputs-form.tsx). /console/inputs/<id> is one input (inputs-input.tsx). The hub has no event for
// inputs: the list is read again on each connection and when an input raised or merged an alarm.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AlarmView } from '../../../schemas/alarms.js';
import { api } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import { useFollow, useNow } from './inputs-documents.js';
import { InputForm } from './inputs-form.js';
import { InputPage, InputState, OnOff } from './inputs-input.js';
import type { Input } from './inputs-model.js';
import { w } from './inputs-words.js';

function InputList({ organization }: { organization: Organization }) {
  const admin = organization.role === 'admin';
  const [inputs, setInputs] = useState<Input[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const now = useNow();

  const reads = useNewest();
  const read = useCallback(async () => {
    try {
      const found = await reads(() => api<Input[]>('GET', `/inputs?organization_id=${organization.id}`));
      if (!found) return null;
      setInputs(found);
      setProblem(null);
      return JSON.stringify(found.map((i) => [i.id, i.lastReceivedAt, i.lastError]));
    } catch (err) {
      setProblem(explain(err));
      return null;
    }
  }, [organization.id]);
  const { load, follow } = useFollow(read);
  useEffect(() => void load(), [load]);
  const alarmed = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (alarm.organizationId === organization.id && alarm.source === 'input') follow();
    },
    [organization.id, follow],
  );
  useHubEvent('alarm:created', alarmed, load);
  useHubEvent('alarm:updated', alarmed, load);

  return (
    <>
      <p class="hint">{w.lead}</p>
      <Problem text={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {inputs === null ? (
        !problem && <p aria-busy="true">{t.loading}</p>
      ) : inputs.length === 0 ? (
        <p class="hint">{w.none}</p>
      ) : (
        <ul class="list inputs-list">
          {inputs.map((input) => (
            <li key={input.id}>
              <div>
                <a class="alarm-link" href={`/console/inputs/${input.id}${location.search}`}>
                  <strong>{input.name}</strong>
                </a>
                <InputState input={input} now={now} />
              </div>
              <OnOff active={input.active} />
            </li>
          ))}
        </ul>
      )}
      {admin ? (
        // The form opens on a tap once there are inputs: on a phone the list stays the page.
        creating || inputs?.length === 0 ? (
          <section aria-labelledby="new-input" class="inputs-section">
            <h2 id="new-input">{w.newInput}</h2>
            <InputForm
              organization={organization}
              onCancel={inputs?.length ? () => setCreating(false) : undefined}
              onDone={(made) => {
                setCreating(false);
                setNotice(w.created(made.name));
                void load();
              }}
            />
          </section>
        ) : (
          <button
            class="button inputs-new"
            type="button"
            onClick={() => {
              setNotice(null);
              setCreating(true);
            }}
          >
            {w.newInput}
          </button>
        )
      ) : (
        <p class="hint">{w.readOnly}</p>
      )}
    </>
  );
}

export function InputsPage({ session, organization }: { session: Session; organization: Organization | null }) {
  // /console/inputs/<id>: one input (main.tsx sends every /console/inputs/… path here).
  const inputId = /^\/console\/inputs\/(\d{1,15})\/?$/.exec(location.pathname)?.[1];
  const [title, setTitle] = useState(w.title);
  return (
    <Shell current="inputs" title={title} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : inputId ? (
        <InputPage organization={organization} inputId={Number(inputId)} onTitle={setTitle} />
      ) : (
        <InputList organization={organization} />
      )}
    </Shell>
  );
}
