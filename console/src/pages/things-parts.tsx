// Pieces the things page's parts share: the organization's record usage, its members' names, paging.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { lang } from '../i18n.js';
import type { Organization } from '../session.js';
import type { Member, Usage } from './things-model.js';
import { w } from './things-words.js';

const count = (n: number) => n.toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB');

/** How many of the organization's records are used, as a meter. */
export function UsageMeter({ usage }: { usage: Usage | null }) {
  if (!usage) return null;
  return (
    <p class="thing-usage">
      <meter
        min={0}
        max={Math.max(1, usage.recordLimit)}
        value={usage.recordCount}
        high={usage.recordLimit * 0.9}
        aria-label={w.usageLabel}
      />
      <span class="meta">{w.usage(count(usage.recordCount), count(usage.recordLimit))}</span>
    </p>
  );
}

/** The organization's members (P6), for the access lists: names instead of numbers. */
export function useMembers(organization: Organization | null): Member[] | null {
  const [members, setMembers] = useState<Member[] | null>(null);
  const reads = useNewest();
  const load = useCallback(async () => {
    if (!organization) return;
    try {
      const found = await reads(() => api<{ members: Member[] }>('GET', `/organizations/${organization.id}/members`));
      if (found) setMembers(found.members);
    } catch {
      // Without the list the access lists show numbers; the page's own reads report the problem.
      setMembers([]);
    }
  }, [organization?.id]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === organization?.id) void load();
    },
    [organization?.id, load],
  );
  useHubEvent('members:changed', changed, load);
  return members;
}

/** Previous and next page, and where the page is in the whole. */
export function Pager({
  offset,
  size,
  total,
  onPage,
  label,
}: {
  offset: number;
  size: number;
  total: number;
  onPage: (offset: number) => void;
  label: string;
}) {
  return (
    <nav class="row spread thing-pager" aria-label={`${label}: ${w.pages}`}>
      <button
        class="button small secondary"
        type="button"
        disabled={offset === 0}
        onClick={() => onPage(Math.max(0, offset - size))}
      >
        {w.previous}
      </button>
      <span class="meta" aria-live="polite">
        {w.pageOf(Math.min(total, offset + 1), Math.min(total, offset + size), total)}
      </span>
      <button
        class="button small secondary"
        type="button"
        disabled={offset + size >= total}
        onClick={() => onPage(offset + size)}
      >
        {w.next}
      </button>
    </nav>
  );
}
