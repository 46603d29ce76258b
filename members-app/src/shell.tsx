// The app's frame (docs/members-app.md "Made for one hand at night"): a slim bar on top, the screen, and
// the four sections as large tabs at the bottom where the thumb reaches them; a line says when the phone
// is offline and the screen shows what was last loaded.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { hub } from '../../console/src/hub.js';
import { href, type Route } from './router.js';
import { w } from './words.js';

const ICONS: Record<string, string> = {
  // A bell, a list, a person with a tick, three dots.
  home: 'M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.5 15a2.5 2.5 0 0 0 5 0z',
  history: 'M4 5h16v2H4zm0 6h16v2H4zm0 6h10v2H4z',
  availability:
    'M9 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm-7 15c0-3 3-5 7-5s7 2 7 5v1H2zm14.3-7.7 1.4-1.4 1.8 1.8 3.3-3.3 1.4 1.4-4.7 4.7z',
  more: 'M5 10a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm7 0a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm7 0a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
};

/**
 * Whether the screen shows what was kept rather than what is: the browser says it is offline, or the
 * worker last answered from what it kept (sw.ts), and neither a fresh answer nor the hub came since.
 */
export function useOffline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  const [stale, setStale] = useState(false);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    const fromWorker = (event: MessageEvent) => {
      const type = (event.data as { type?: string } | null)?.type;
      if (type === 'stale' || type === 'fresh') setStale(type === 'stale');
    };
    const fresh = () => setStale(false);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    navigator.serviceWorker?.addEventListener('message', fromWorker);
    hub().on('connect', fresh);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
      navigator.serviceWorker?.removeEventListener('message', fromWorker);
      hub().off('connect', fresh);
    };
  }, []);
  return !online || stale;
}

function Tab({ path, icon, label, current }: { path: string; icon: string; label: string; current: boolean }) {
  return (
    <a class="tab" href={href(path)} aria-current={current ? 'page' : undefined}>
      <svg class="tab-icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d={ICONS[icon]} />
      </svg>
      <span class="tab-label">{label}</span>
    </a>
  );
}

export function Shell({ route, title, children }: { route: Route; title?: string; children: ComponentChildren }) {
  const offline = useOffline();
  const section = route.name === 'alarm' ? 'home' : route.name;
  return (
    <div class="app">
      <header class="app-bar">
        <span class="app-brand" aria-hidden="true">
          alarm-hub
        </span>
        {title && <span class="app-bar-title">{title}</span>}
      </header>
      {offline && (
        <p class="app-offline" role="status" data-testid="offline">
          {w.offline}
        </p>
      )}
      <main class="app-main">{children}</main>
      <nav class="tab-bar" aria-label={w.tabs}>
        <Tab path="/app" icon="home" label={w.tabAlarm} current={section === 'home'} />
        <Tab path="/app/history" icon="history" label={w.tabHistory} current={section === 'history'} />
        <Tab
          path="/app/availability"
          icon="availability"
          label={w.tabAvailability}
          current={section === 'availability'}
        />
        <Tab path="/app/more" icon="more" label={w.tabMore} current={section === 'more'} />
      </nav>
    </div>
  );
}
