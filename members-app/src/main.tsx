// The members' app (docs/members-app.md): one page for every path under /app, a service worker for the
// notifications and the offline shell (sw.ts). Signed in by the session cookie of the invitation or of a
// passkey; the screens are chosen by the path (router.ts). language.ts comes first: it puts a language
// chosen earlier back into the address before the words are chosen.
import './language.js';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../console/src/api.js';
import { lang, t } from '../../console/src/i18n.js';
import { loadSession, type Session } from '../../console/src/session.js';
import { Problem, explain } from '../../console/src/ui.js';
import { AlarmScreen } from './alarm-screen.js';
import { usePush } from './push.js';
import { followLinks, navigate, useRoute } from './router.js';
import { AvailabilityScreen, HistoryScreen, HomeScreen, MoreScreen } from './screens.js';
import { saveLanguage } from './settings.js';
import { Shell } from './shell.js';
import { SignInScreen } from './signin.js';

function SignedIn({ session }: { session: Session }) {
  const route = useRoute();
  const push = usePush(session.user.id);
  const title = session.organizations.length === 1 ? session.organizations[0].name : undefined;
  let screen;
  if (session.organizations.length === 0) screen = <p>{t.noOrganization}</p>;
  else if (route.name === 'alarm') screen = <AlarmScreen id={route.id} session={session} push={push} />;
  else if (route.name === 'history') screen = <HistoryScreen session={session} />;
  else if (route.name === 'availability') screen = <AvailabilityScreen session={session} />;
  else if (route.name === 'more') screen = <MoreScreen session={session} push={push} />;
  else screen = <HomeScreen session={session} push={push} />;
  return (
    <Shell route={route} title={title}>
      {screen}
    </Shell>
  );
}

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [state, setState] = useState<'loading' | 'signed-out' | string>('loading');
  const load = () => {
    setState('loading');
    loadSession().then(setSession, (err) =>
      setState(err instanceof ApiError && err.status === 401 ? 'signed-out' : explain(err)),
    );
  };
  useEffect(load, []);
  if (session) return <SignedIn session={session} />;
  if (state === 'signed-out') return <SignInScreen onSignedIn={load} />;
  return (
    <div class="app">
      <main class="app-main">
        {state === 'loading' ? (
          <p aria-busy="true" class="hint">
            {t.loading}
          </p>
        ) : (
          <Problem text={state} />
        )}
      </main>
    </div>
  );
}

document.documentElement.lang = lang;
if ('serviceWorker' in navigator) {
  // The worker at /app/sw.js controls /app itself (the server allows the scope, server/display/app-routes.ts).
  void navigator.serviceWorker.register('/app/sw.js', { scope: '/app' }).catch(() => undefined);
  // A tap on a notification while the app is open shows its alarm here (sw.ts).
  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data as { type?: string; path?: string } | null;
    if (data?.type === 'open' && typeof data.path === 'string' && data.path.startsWith('/app')) navigate(data.path);
  });
  void saveLanguage(lang).catch(() => undefined);
  // On the very first start the page asked who is signed in before the worker took it over: asked again
  // through the worker, the answer is kept for a start without a network.
  navigator.serviceWorker.addEventListener('controllerchange', () => void loadSession().catch(() => undefined), {
    once: true,
  });
}
const root = document.getElementById('app')!;
followLinks(root);
render(<App />, root);
