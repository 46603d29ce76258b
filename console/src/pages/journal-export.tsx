// The journal as a file to hand over (J-export, docs/api.md "Journal export"): PDF or CSV, its times in
// a time zone (the browser's unless changed), its labels in German or English. The file is fetched
// first, so a refusal (a PDF of the organization already being made, an unknown time zone) is said in
// words beside the form instead of being saved as a file; the entries' SHA-256 the file prints is shown.
import { useState } from 'preact/hooks';
import { ApiError, type ErrorDetail } from '../api.js';
import { lang, words } from '../i18n.js';
import { Problem, fieldProblems } from '../ui.js';

const w = words(
  {
    title: 'Exportieren',
    lead: 'Alle Einträge in der Reihenfolge ihrer Nummern, gelöschte markiert.',
    format: 'Format',
    pdf: 'PDF (zum Drucken)',
    csv: 'CSV (für Tabellen)',
    zone: 'Zeitzone der Zeiten',
    zoneHint: 'z. B. Europe/Berlin',
    zoneUnknown: 'Diese Zeitzone kennt der Server nicht. Bitte einen Namen wie Europe/Berlin angeben.',
    language: 'Sprache der Datei',
    german: 'Deutsch',
    english: 'Englisch',
    download: 'Herunterladen',
    working: 'Datei wird erstellt …',
    done: (file: string) => `${file} ist heruntergeladen.`,
    sha: 'Prüfsumme der Einträge (SHA-256, steht auf jeder Seite)',
  },
  {
    title: 'Export',
    lead: 'Every entry in the order of its number, deleted ones marked.',
    format: 'Format',
    pdf: 'PDF (to print)',
    csv: 'CSV (for spreadsheets)',
    zone: 'Time zone of the times',
    zoneHint: 'e.g. Europe/Berlin',
    zoneUnknown: 'The server does not know this time zone. Please give a name such as Europe/Berlin.',
    language: 'Language of the file',
    german: 'German',
    english: 'English',
    download: 'Download',
    working: 'Making the file …',
    done: (file: string) => `${file} is downloaded.`,
    sha: 'Checksum of the entries (SHA-256, printed on every page)',
  },
);

// The zones this browser knows, offered while typing (older browsers: none, the field is free text).
// Asked for when the form first shows, not as the console's script starts (docs/console.md "Loading").
let zones: string[] | undefined;
const knownZones = () =>
  (zones ??= (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? []);

/** The export's answer, or an ApiError with the API's error body (the same as api() throws). */
async function fetchExport(path: string): Promise<{ blob: Blob; filename: string; sha256: string }> {
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'offline', '');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as {
      error?: string;
      message?: string;
      details?: ErrorDetail[];
    } | null;
    if (!body) throw new ApiError(res.status, res.status >= 500 ? 'unavailable' : 'error', res.statusText);
    throw new ApiError(res.status, body.error ?? 'error', body.message ?? res.statusText, body.details ?? []);
  }
  const named = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '');
  return {
    blob: await res.blob(),
    filename: named?.[1] ?? 'journal',
    sha256: res.headers.get('Journal-Entries-SHA256') ?? '',
  };
}

export function ExportForm({ journalId }: { journalId: number }) {
  const [format, setFormat] = useState<'pdf' | 'csv'>('pdf');
  const [zone, setZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'Europe/Berlin');
  const [fileLang, setFileLang] = useState<'de' | 'en'>(lang);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [done, setDone] = useState<{ filename: string; sha256: string } | null>(null);

  const download = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    setDone(null);
    try {
      const query = new URLSearchParams({ format, timeZone: zone.trim(), lang: fileLang });
      const file = await fetchExport(`/journal/${journalId}/export?${query}`);
      const url = URL.createObjectURL(file.blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setDone({ filename: file.filename, sha256: file.sha256 });
    } catch (err) {
      const found = fieldProblems(err, ['timeZone', 'format', 'lang']);
      setProblems(found.timeZone ? { ...found, timeZone: w.zoneUnknown } : found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="journal-export">
      <h2 id="journal-export">{w.title}</h2>
      <p class="hint">{w.lead}</p>
      <form class="stack" onSubmit={download} noValidate>
        <label for="export-format">{w.format}</label>
        <select
          id="export-format"
          value={format}
          onChange={(e) => setFormat((e.target as HTMLSelectElement).value as 'pdf' | 'csv')}
        >
          <option value="pdf">{w.pdf}</option>
          <option value="csv">{w.csv}</option>
        </select>
        <label for="export-zone">{w.zone}</label>
        <input
          id="export-zone"
          value={zone}
          list="export-zones"
          autoComplete="off"
          placeholder={w.zoneHint}
          maxLength={64}
          aria-invalid={problems.timeZone ? true : undefined}
          aria-describedby={problems.timeZone ? 'export-zone-problem' : undefined}
          onInput={(e) => setZone((e.target as HTMLInputElement).value)}
        />
        <datalist id="export-zones">
          {knownZones().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        {problems.timeZone && (
          <span id="export-zone-problem" class="field-problem">
            {problems.timeZone}
          </span>
        )}
        <label for="export-lang">{w.language}</label>
        <select
          id="export-lang"
          value={fileLang}
          onChange={(e) => setFileLang((e.target as HTMLSelectElement).value as 'de' | 'en')}
        >
          <option value="de">{w.german}</option>
          <option value="en">{w.english}</option>
        </select>
        <Problem text={problems.form ?? problems.format ?? problems.lang ?? null} />
        {done && (
          <div class="notice" role="status">
            <p>{w.done(done.filename)}</p>
            {done.sha256 && (
              <p class="meta journal-sha">
                {w.sha}: <code>{done.sha256}</code>
              </p>
            )}
          </div>
        )}
        <button class="button secondary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? w.working : w.download}
        </button>
      </form>
    </section>
  );
}
