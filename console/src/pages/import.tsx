// Importing the station's roster (P9): a CSV file from a spreadsheet; every bad line is listed and
// nothing is created, or each new member gets a link to hand over.
import { useState } from 'preact/hooks';
import { api, ApiError, type ErrorDetail } from '../api.js';
import { t } from '../i18n.js';
import { Problem, explain } from '../ui.js';
import { HandOver } from './invite.js';

interface Imported {
  created: number;
  members: Array<{ userId: number; name: string; invitation: { code: string; link: string; expiresAt: string } }>;
}

export function ImportForm({ organizationId }: { organizationId: number }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [lines, setLines] = useState<ErrorDetail[]>([]);
  const [done, setDone] = useState<Imported | null>(null);
  const upload = async (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setProblem(null);
    setLines([]);
    setDone(null);
    try {
      setDone(
        await api<Imported>('POST', `/organizations/${organizationId}/members/import`, undefined, {
          raw: { body: await file.text(), type: 'text/csv' },
        }),
      );
    } catch (err) {
      if (err instanceof ApiError && err.details.length) setLines(err.details);
      else setProblem(explain(err));
    } finally {
      setBusy(false);
      input.value = '';
    }
  };
  return (
    <section aria-labelledby="import">
      <h2 id="import">{t.importTitle}</h2>
      <p class="hint">{t.importLead}</p>
      <label class="button secondary file" aria-busy={busy}>
        {busy ? t.loading : t.importFile}
        <input type="file" accept=".csv,text/csv" onChange={upload} disabled={busy} />
      </label>
      <Problem text={problem} />
      {lines.length > 0 && (
        <div class="problem" role="alert">
          <p>{t.importProblems}</p>
          <ul>
            {lines.map((d) => (
              <li key={`${d.path}:${d.problem}`}>
                <strong>{d.path}</strong>: {d.problem}
              </li>
            ))}
          </ul>
        </div>
      )}
      {done && (
        <div role="status">
          <p>{t.importDone(done.created)}</p>
          <ul class="list">
            {done.members.map((m) => (
              <li key={m.userId} class="column">
                <strong>{m.name}</strong>
                <HandOver name={m.name} invitation={m.invitation} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
