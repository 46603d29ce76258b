// The members' app's service worker (docs/members-app.md), at /app/sw.js with the scope /app:
// - an alarm's push becomes a notification that insists (event, address and message, both answers as
//   actions), and its arrival is confirmed at once (push/delivered), which spares the member the SMS and
//   the call that escalation would send him;
// - an answer chosen on the notification goes to the service (A11, the push's token) without opening
//   the app; a tap on the notification itself opens the app on that alarm;
// - a subscription the browser renewed is registered again (pushsubscriptionchange);
// - the app's page and what the API last answered are kept, so the app opens and shows the last alarms
//   without a network.
// It runs with the member's session cookie (same origin), as the page does.
import { api, ApiError } from '../../console/src/api.js';
import { registerSubscription } from './device.js';
import { notificationWords } from './push-words.js';
import { DATA_CACHE, savedLanguage } from './settings.js';

// The parts of the service worker's global scope used here (TypeScript's DOM library lacks them).
interface Extendable extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface PushData {
  json(): unknown;
  text(): string;
}
interface WindowClient {
  url: string;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: {
    claim(): Promise<void>;
    get(id: string): Promise<WindowClient | undefined>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: Extendable) => void): void;
  addEventListener(type: 'push', listener: (event: Extendable & { data: PushData | null }) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: Extendable & { notification: Notification; action: string }) => void,
  ): void;
  addEventListener(
    type: 'pushsubscriptionchange',
    listener: (
      event: Extendable & { oldSubscription?: PushSubscription | null; newSubscription?: PushSubscription | null },
    ) => void,
  ): void;
  addEventListener(
    type: 'fetch',
    listener: (
      event: Extendable & { request: Request; clientId: string; respondWith(response: Promise<Response>): void },
    ) => void,
  ): void;
}

const sw = self as unknown as WorkerScope;

/** The alarm push's payload (docs/members-app.md "Web Push"); a test push (A5) has type "test". */
export interface AlarmPush {
  type: 'alarm';
  alarmId: number;
  event: string;
  message: string;
  address: string;
  organizationName: string;
  startedAt: string;
  answerToken: string;
}
interface TestPush {
  type: 'test';
  title?: string;
  body?: string;
  answerToken?: string;
}

/** What a notification carries to its click. */
interface NoteData {
  url: string;
  tag?: string;
  event?: string;
  answerToken?: string;
}

const SHELL_CACHE = 'alarm-hub-app-shell';
/** The page (one for every path under /app) and what it loads. */
const SHELL = [
  '/app',
  '/app/app.js',
  '/app/app.css',
  '/app/manifest.webmanifest',
  '/app/icon-192.png',
  '/app/badge-96.png',
];
// A long pulse, as a pager's: the phone may be in a pocket.
const VIBRATE = [600, 200, 600, 200, 600, 200, 1200];
const ICON = '/app/icon-192.png';
const BADGE = '/app/badge-96.png';

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

// The page and its files come from the network while there is one (an update arrives at once) and from
// the cache without; so do the API's answers, which the app shows again offline.
sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  // A navigation to a path of the app is the page (a file of it opened by hand is not).
  if (request.mode === 'navigate' && /^\/app(\/[^.]*)?$/.test(url.pathname))
    event.respondWith(networkFirst(SHELL_CACHE, request, '/app'));
  else if (SHELL.includes(url.pathname)) event.respondWith(networkFirst(SHELL_CACHE, request, url.pathname));
  else if (url.pathname.startsWith('/api/v1/')) event.respondWith(apiFirst(request, event.clientId));
});

async function networkFirst(cacheName: string, request: Request, key: string): Promise<Response> {
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(cacheName)).put(key, response.clone());
    return response;
  } catch (err) {
    const kept = await (await caches.open(cacheName)).match(key);
    if (kept) return kept;
    throw err;
  }
}

// What the API answered is kept and shown when the network, or the service, is away (a 5xx); the page is
// told whether it sees a kept answer or a fresh one, so that it says so (shell.tsx). What is kept is the
// member's own: it is forgotten when his session ends (401) or another person signs in on this browser.
async function apiFirst(request: Request, clientId: string): Promise<Response> {
  const cache = await caches.open(DATA_CACHE);
  const tell = async (type: 'stale' | 'fresh') => (await sw.clients.get(clientId))?.postMessage({ type });
  let response: Response | null = null;
  let failure: unknown;
  try {
    response = await fetch(request);
  } catch (err) {
    failure = err;
  }
  if (!response || response.status >= 500) {
    const kept = await cache.match(request.url);
    if (kept) {
      await tell('stale');
      return kept;
    }
    if (!response) throw failure;
    return response;
  }
  await tell('fresh');
  if (response.status === 401) await caches.delete(DATA_CACHE);
  if (response.status !== 200) return response;
  if (new URL(request.url).pathname === '/api/v1/session') {
    const before = await cache.match(request.url);
    const userOf = async (r: Response) => ((await r.clone().json()) as { user?: { id?: number } }).user?.id;
    if (before && (await userOf(before)) !== (await userOf(response))) await caches.delete(DATA_CACHE);
  }
  await (await caches.open(DATA_CACHE)).put(request.url, response.clone());
  return response;
}

sw.addEventListener('push', (event) => event.waitUntil(onPush(event.data)));

function payloadOf(data: PushData | null): AlarmPush | TestPush | null {
  if (!data) return null;
  try {
    const value = data.json() as { type?: unknown };
    return value && (value.type === 'alarm' || value.type === 'test') ? (value as AlarmPush | TestPush) : null;
  } catch {
    return null;
  }
}

async function onPush(data: PushData | null): Promise<void> {
  const w = notificationWords(await savedLanguage(navigator.languages));
  const push = payloadOf(data);
  // A push must show a notification (the browser shows a vague one of its own otherwise).
  if (!push) {
    await sw.registration.showNotification(w.alarm, { body: data?.text() ?? '', icon: ICON, badge: BADGE });
    return;
  }
  const shown =
    push.type === 'alarm'
      ? showAlarm(push, w)
      : sw.registration.showNotification(push.title || w.test, {
          body: push.body ?? '',
          tag: 'test',
          icon: ICON,
          badge: BADGE,
          data: { url: '/app' } satisfies NoteData,
        });
  await Promise.allSettled([shown, push.answerToken ? confirmDelivered(push.answerToken) : null]);
  await shown;
}

/** Shows an alarm as a notification that stays until the member acts, with both answers as actions. */
function showAlarm(push: AlarmPush, w: ReturnType<typeof notificationWords>): Promise<void> {
  const body = [push.address, push.message, push.organizationName].filter(Boolean).join('\n');
  const tag = `alarm-${push.alarmId}`;
  const options = {
    body,
    tag,
    renotify: true,
    requireInteraction: true,
    vibrate: VIBRATE,
    timestamp: Date.parse(push.startedAt) || Date.now(),
    icon: ICON,
    badge: BADGE,
    data: {
      url: `/app/alarm/${push.alarmId}`,
      tag,
      event: push.event,
      answerToken: push.answerToken,
    } satisfies NoteData,
    actions: [
      { action: 'yes', title: w.coming },
      { action: 'no', title: w.notComing },
    ],
  };
  return sw.registration.showNotification(push.event || w.alarm, options as NotificationOptions);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** push/delivered, tried again when the network failed (the push came through it a moment ago). */
async function confirmDelivered(token: string): Promise<void> {
  for (const wait of [0, 1_000, 3_000]) {
    await pause(wait);
    try {
      await api('POST', `/app/push/delivered/${encodeURIComponent(token)}`);
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 0)) return;
    }
  }
}

sw.addEventListener('notificationclick', (event) => {
  const done = onNotificationClick(event.notification, event.action);
  event.waitUntil(done);
});

/** An action answers (A11) where the member is, without opening the app; a tap on the notification opens it. */
async function onNotificationClick(notification: Notification, action: string): Promise<void> {
  const data = (notification.data ?? { url: '/app' }) as NoteData;
  notification.close();
  if ((action === 'yes' || action === 'no') && data.answerToken) await answerFromNotification(data, action === 'yes');
  else await openApp(data.url);
}

async function answerFromNotification(data: NoteData, coming: boolean): Promise<void> {
  const w = notificationWords(await savedLanguage(navigator.languages));
  const quiet = { tag: data.tag, icon: ICON, badge: BADGE, data: { url: data.url } satisfies NoteData };
  try {
    await api('POST', `/app/push/answered/${encodeURIComponent(data.answerToken!)}/${coming ? 'yes' : 'no'}`, {});
    await sw.registration.showNotification(w.answered(coming), { ...quiet, body: data.event ?? '', silent: true });
  } catch {
    // Offline, the session ended, or the token was used: the app answers then (A10).
    await sw.registration.showNotification(data.event || w.alarm, {
      ...quiet,
      body: w.notAnswered,
      requireInteraction: true,
    });
  }
}

async function openApp(url: string): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((c) => /^\/app(\/|$)/.test(new URL(c.url).pathname));
  if (open) {
    await open.focus();
    open.postMessage({ type: 'open', path: url });
    return;
  }
  await sw.clients.openWindow(url);
}

sw.addEventListener('pushsubscriptionchange', (event) =>
  event.waitUntil(renew(event.oldSubscription ?? null, event.newSubscription ?? null)),
);

async function renew(old: PushSubscription | null, fresh: PushSubscription | null): Promise<void> {
  const subscription =
    fresh ??
    (await sw.registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: (await api<{ publicKey: string }>('GET', '/webpush/key')).publicKey,
    }));
  const session = await api<{ user: { id: number } }>('GET', '/session');
  await registerSubscription(session.user.id, subscription, old?.endpoint);
}
