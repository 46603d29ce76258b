// Writing the journal (J9) while holding its lock, made for stress: a category (J1) kept from the last
// entry, a text box where Enter is a new line and Ctrl+Enter (or the big button) saves, the text kept
// as long as it is not saved (a refusal, no network, a reload of the tab, a lock broken meanwhile: the
// text stays with the refusal beside it until the person locks again). Admins create categories (J2);
// entries need one (docs/api.md "Journal").
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { words } from '../i18n.js';
import { Problem, fieldProblems } from '../ui.js';
import { refusal, type CategoryView, type JournalEntryView } from './journal-common.js';

const w = words(
  {
    writeTitle: 'Eintrag schreiben',
    category: 'Kategorie',
    text: 'Eintrag',
    textHint: 'Enter beginnt eine neue Zeile, Strg+Enter speichert.',
    textMissing: 'Bitte den Eintrag schreiben.',
    categoryMissing: 'Bitte eine Kategorie wählen.',
    more: 'Ort und Zeitpunkt angeben',
    place: 'Ort',
    time: 'Zeitpunkt, wenn nicht jetzt',
    save: 'Eintrag speichern',
    saving: 'Wird gespeichert …',
    saved: (n: number) => `Eintrag Nr. ${n} gespeichert.`,
    lockLost:
      'Sie haben die Sperre nicht mehr. Ihr Text bleibt hier; sperren Sie das Tagebuch wieder, um ihn zu speichern.',
    noCategories: 'Es gibt noch keine Kategorie. Einträge brauchen eine; die Verwaltung legt sie an.',
    noCategoriesAdmin: 'Es gibt noch keine Kategorie. Legen Sie unten eine an, dann können Sie schreiben.',
    categoriesTitle: 'Kategorien',
    newCategory: 'Kategorie anlegen',
    categoryName: 'Name der Kategorie',
    categoryNameHint: 'z. B. „Lagemeldung“ oder „Nachforderung“',
    categoryDescription: 'Beschreibung (freiwillig)',
    createCategory: 'Kategorie anlegen',
    nameMissing: 'Bitte einen Namen eingeben.',
    created: (name: string) => `Kategorie „${name}“ angelegt.`,
  },
  {
    writeTitle: 'Write an entry',
    category: 'Category',
    text: 'Entry',
    textHint: 'Enter starts a new line, Ctrl+Enter saves.',
    textMissing: 'Please write the entry.',
    categoryMissing: 'Please choose a category.',
    more: 'Give a place and time',
    place: 'Place',
    time: 'Time, if not now',
    save: 'Save entry',
    saving: 'Saving …',
    saved: (n: number) => `Entry no. ${n} saved.`,
    lockLost: 'You no longer hold the lock. Your text stays here; lock the journal again to save it.',
    noCategories: 'There is no category yet. Entries need one; an admin creates them.',
    noCategoriesAdmin: 'There is no category yet. Create one below, then you can write.',
    categoriesTitle: 'Categories',
    newCategory: 'Create a category',
    categoryName: 'Name of the category',
    categoryNameHint: 'e.g. “Situation report” or “Request”',
    categoryDescription: 'Description (optional)',
    createCategory: 'Create category',
    nameMissing: 'Please enter a name.',
    created: (name: string) => `Category “${name}” created.`,
  },
);

// A draft outlives a reload of the tab, per journal; it is gone once saved.
const draftKey = (journalId: number) => `alarm-hub.console.journal-draft.${journalId}`;
const CATEGORY = 'alarm-hub.console.journal-category';

/** True when a text for this journal is waiting to be saved: its form stays, even without the lock. */
export const hasDraft = (journalId: number) => Boolean(sessionStorage.getItem(draftKey(journalId)));

function FieldProblem({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span id={id} class="field-problem">
      {text}
    </span>
  ) : null;
}

export function EntryForm({
  journalId,
  categories,
  admin,
  canSave,
  focus,
  onWritten,
  onRefused,
}: {
  journalId: number;
  categories: CategoryView[];
  admin: boolean;
  /** The person holds the lock; without it the text waits. */
  canSave: boolean;
  /** Changes each time the person locks the journal to write: the cursor goes into the text. */
  focus: number;
  onWritten(entry: JournalEntryView): void;
  onRefused(): void;
}) {
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey(journalId)) ?? '');
  const [categoryId, setCategoryId] = useState(() => Number(localStorage.getItem(CATEGORY)) || 0);
  const [place, setPlace] = useState('');
  const [time, setTime] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const textBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) textBox.current?.focus();
  }, [focus]);
  // The category last used, while it exists; else the first.
  const chosen = categories.some((c) => c.id === categoryId) ? categoryId : (categories[0]?.id ?? 0);

  const edit = (value: string) => {
    setText(value);
    if (value) sessionStorage.setItem(draftKey(journalId), value);
    else sessionStorage.removeItem(draftKey(journalId));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || !canSave) return;
    setNotice(null);
    if (!text.trim()) return setProblems({ text: w.textMissing });
    if (!chosen) return setProblems({ categoryId: w.categoryMissing });
    setBusy(true);
    setProblems({});
    try {
      const entry = await api<JournalEntryView>('POST', `/journal/${journalId}/entries`, {
        journalId,
        categoryId: chosen,
        text: text.trim(),
        ...(place.trim() && { location: place.trim() }),
        ...(time && { customTime: new Date(time).toISOString() }),
      });
      localStorage.setItem(CATEGORY, String(chosen));
      edit('');
      setPlace('');
      setTime('');
      setNotice(w.saved(entry.serialNumber));
      onWritten(entry);
      textBox.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setProblems({ form: refusal(err) });
        onRefused();
      } else setProblems(fieldProblems(err, ['text', 'categoryId', 'location', 'customTime']));
    } finally {
      setBusy(false);
    }
  };

  if (categories.length === 0) return <p class="hint">{admin ? w.noCategoriesAdmin : w.noCategories}</p>;
  return (
    <section aria-labelledby="journal-write">
      <h2 id="journal-write">{w.writeTitle}</h2>
      <form class="stack" onSubmit={submit} noValidate>
        <label for="journal-category">{w.category}</label>
        <select
          id="journal-category"
          value={chosen}
          aria-invalid={problems.categoryId ? true : undefined}
          aria-describedby={problems.categoryId ? 'journal-category-problem' : undefined}
          onChange={(e) => setCategoryId(Number((e.target as HTMLSelectElement).value))}
        >
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <FieldProblem id="journal-category-problem" text={problems.categoryId} />
        <label for="journal-text">{w.text}</label>
        <textarea
          id="journal-text"
          ref={textBox}
          class="journal-text"
          value={text}
          rows={4}
          maxLength={10_000}
          aria-invalid={problems.text ? true : undefined}
          aria-describedby={`journal-text-hint${problems.text ? ' journal-text-problem' : ''}`}
          onInput={(e) => edit((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
            }
          }}
        />
        <span id="journal-text-hint" class="meta">
          {w.textHint}
        </span>
        <FieldProblem id="journal-text-problem" text={problems.text} />
        <details class="journal-more" open={Boolean(problems.location || problems.customTime)}>
          <summary>{w.more}</summary>
          <div class="stack">
            <label for="journal-place">{w.place}</label>
            <input
              id="journal-place"
              value={place}
              maxLength={500}
              aria-invalid={problems.location ? true : undefined}
              aria-describedby={problems.location ? 'journal-place-problem' : undefined}
              onInput={(e) => setPlace((e.target as HTMLInputElement).value)}
            />
            <FieldProblem id="journal-place-problem" text={problems.location} />
            <label for="journal-time">{w.time}</label>
            <input
              id="journal-time"
              type="datetime-local"
              value={time}
              aria-invalid={problems.customTime ? true : undefined}
              aria-describedby={problems.customTime ? 'journal-time-problem' : undefined}
              onInput={(e) => setTime((e.target as HTMLInputElement).value)}
            />
            <FieldProblem id="journal-time-problem" text={problems.customTime} />
          </div>
        </details>
        <Problem text={problems.form ?? null} />
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        {canSave ? (
          <button class="button journal-save" type="submit" disabled={busy} aria-busy={busy}>
            {busy ? w.saving : w.save}
          </button>
        ) : (
          <p class="hint">{w.lockLost}</p>
        )}
      </form>
    </section>
  );
}

/** The organization's categories and, for admins, a new one (J2). */
export function Categories({
  organizationId,
  categories,
  onCreated,
}: {
  organizationId: number;
  categories: CategoryView[];
  onCreated(category: CategoryView): void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    setNotice(null);
    if (!name.trim()) return setProblems({ name: w.nameMissing });
    setProblems({});
    try {
      const category = await api<CategoryView>('POST', '/journal/categories', {
        organizationId,
        name: name.trim(),
        description: description.trim(),
      });
      setName('');
      setDescription('');
      setNotice(w.created(category.name));
      onCreated(category);
    } catch (err) {
      setProblems(fieldProblems(err, ['name', 'description']));
    }
  };

  return (
    <section aria-labelledby="journal-categories">
      <h2 id="journal-categories">{w.categoriesTitle}</h2>
      {categories.length > 0 && (
        <ul class="list">
          {categories.map((c) => (
            <li key={c.id}>
              <div>
                <strong>{c.name}</strong>
                {c.description && <span class="meta">{c.description}</span>}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form class="stack" onSubmit={create} noValidate>
        <h3>{w.newCategory}</h3>
        <label for="category-name">{w.categoryName}</label>
        <input
          id="category-name"
          value={name}
          maxLength={200}
          placeholder={w.categoryNameHint}
          aria-invalid={problems.name ? true : undefined}
          aria-describedby={problems.name ? 'category-name-problem' : undefined}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <FieldProblem id="category-name-problem" text={problems.name} />
        <label for="category-description">{w.categoryDescription}</label>
        <input
          id="category-description"
          value={description}
          maxLength={2000}
          aria-invalid={problems.description ? true : undefined}
          aria-describedby={problems.description ? 'category-description-problem' : undefined}
          onInput={(e) => setDescription((e.target as HTMLInputElement).value)}
        />
        <FieldProblem id="category-description-problem" text={problems.description} />
        <Problem text={problems.form ?? null} />
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <button class="button secondary" type="submit">
          {w.createCategory}
        </button>
      </form>
    </section>
  );
}
