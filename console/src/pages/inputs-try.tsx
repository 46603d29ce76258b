// "Ausprobieren" (IP5): an input's profile tried on a pasted text or on a file chosen or dropped here (a
// PDF, a scan, an e-mail) — the text the service read, each field's value with the missing ones marked,
// and the alarm it would raise or why none. Nothing is raised and nothing is noted in IP6.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { t } from '../i18n.js';
import { Problem, explain } from '../ui.js';
import {
  EXAMPLE_FAX,
  PROFILE_FIELDS,
  documentType,
  type Input,
  type ProfileField,
  type TryResult,
} from './inputs-model.js';
import { reasonInWords, w } from './inputs-words.js';

const MAX_BYTES = 20 * 1024 * 1024;

/** A value as the result shows it: a list joined, nothing as "not found", marked. */
function Value({ value }: { value: string | string[] | null | undefined }) {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text ? <span>{text}</span> : <span class="inputs-missing">{w.missing}</span>;
}

function Result({ result, title, fields }: { result: TryResult; title: string; fields: ProfileField[] }) {
  const alarm = result.alarm;
  return (
    <section class="inputs-result" aria-labelledby="try-result" data-testid="try-result">
      <h3 id="try-result">{title}</h3>
      {alarm ? (
        <div class="inputs-would" data-testid="would-raise">
          <strong>{w.wouldRaise}</strong>
          <dl class="inputs-facts">
            <div class="inputs-fact">
              <dt>{t.event}</dt>
              <dd>{alarm.event}</dd>
            </div>
            {alarm.keyword && (
              <div class="inputs-fact">
                <dt>{w.field.keyword}</dt>
                <dd>{alarm.keyword}</dd>
              </div>
            )}
            <div class="inputs-fact">
              <dt>{t.address}</dt>
              <dd>{alarm.address || w.dash}</dd>
            </div>
            <div class="inputs-fact">
              <dt>{w.position}</dt>
              <dd>
                {alarm.latitude !== null && alarm.longitude !== null
                  ? `${alarm.latitude}, ${alarm.longitude}`
                  : w.noPosition}
              </dd>
            </div>
            <div class="inputs-fact">
              <dt>{w.field.units}</dt>
              <dd>{alarm.units.length ? alarm.units.join(', ') : w.dash}</dd>
            </div>
            <div class="inputs-fact">
              <dt>{w.field.dispatchNumber}</dt>
              <dd>{alarm.dispatchNumber ?? w.dash}</dd>
            </div>
            <div class="inputs-fact">
              <dt>{t.message}</dt>
              <dd>{alarm.message || w.dash}</dd>
            </div>
          </dl>
        </div>
      ) : (
        <p class="problem" data-testid="would-not">
          <strong>{w.wouldNot}:</strong> {reasonInWords(result.reason ?? '')}
        </p>
      )}
      {fields.length > 0 && (
        <>
          <h4>{w.fieldsFound}</h4>
          <dl class="inputs-facts">
            {fields.map((f) => (
              <div class="inputs-fact" key={f} data-field={f}>
                <dt>{w.field[f]}</dt>
                <dd>
                  <Value value={result.fields[f]} />
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <details class="inputs-text">
        <summary>{w.textRead}</summary>
        <pre>{result.text || w.emptyText}</pre>
      </details>
    </section>
  );
}

export function TrySection({ input }: { input: Input }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ result: TryResult; title: string } | null>(null);
  const [over, setOver] = useState(false);
  const fields = PROFILE_FIELDS.filter((f) => input.profile?.fields[f]);

  const run = async (title: string, send: () => Promise<TryResult>) => {
    setProblem(null);
    setResult(null);
    try {
      setResult({ result: await send(), title });
    } catch (err) {
      setProblem(err instanceof ApiError && err.code === 'payload_too_large' ? w.fileTooLarge : explain(err));
    } finally {
      setBusy(null);
    }
  };
  const tryText = (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(t.loading);
    void run(w.triedText, () => api<TryResult>('POST', `/inputs/${input.id}/try`, { text }));
  };
  const tryFile = (file: File | undefined) => {
    if (!file) return;
    const type = documentType(file);
    if (!type) return setProblem(w.fileType);
    if (file.size > MAX_BYTES) return setProblem(w.fileTooLarge);
    setBusy(w.tryingFile(file.name));
    void run(w.triedFile(file.name), () =>
      api<TryResult>('POST', `/inputs/${input.id}/try`, undefined, { raw: { body: file, type } }),
    );
  };

  return (
    <section aria-labelledby="input-try" class="inputs-section">
      <h2 id="input-try">{w.tryTitle}</h2>
      <p class="hint">{w.tryLead}</p>
      <form class="stack" onSubmit={tryText} noValidate>
        <label for="try-text">{w.tryText}</label>
        <span id="try-text-hint" class="meta">
          {w.tryTextHint}
        </span>
        <textarea
          id="try-text"
          class="inputs-paste"
          rows={8}
          maxLength={100_000}
          spellcheck={false}
          aria-describedby="try-text-hint"
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <div class="row wrap">
          <button class="button" type="submit" disabled={busy !== null || !text.trim()}>
            {w.tryButton}
          </button>
          <button class="button secondary" type="button" onClick={() => setText(EXAMPLE_FAX)}>
            {w.tryExample}
          </button>
        </div>
      </form>
      <div
        class={`inputs-drop${over ? ' inputs-drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          tryFile(e.dataTransfer?.files[0]);
        }}
      >
        <label class="button secondary file">
          {w.tryFile}
          <input
            type="file"
            accept=".pdf,.png,.tif,.tiff,.txt,.eml,application/pdf,image/png,image/tiff,text/plain,message/rfc822"
            disabled={busy !== null}
            aria-describedby="try-drop-what"
            onChange={(e) => {
              const picker = e.target as HTMLInputElement;
              tryFile(picker.files?.[0]);
              picker.value = '';
            }}
          />
        </label>
        <span id="try-drop-what" class="meta">
          {w.tryDrop}
        </span>
      </div>
      <div aria-live="polite">
        {busy && <p aria-busy="true">{busy}</p>}
        {result && <Result result={result.result} title={result.title} fields={fields} />}
      </div>
      <Problem text={problem} />
    </section>
  );
}
