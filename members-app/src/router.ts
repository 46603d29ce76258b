// The app's screens by path (docs/members-app.md "The app"): /app, /app/alarm/<id>, /app/history,
// /app/availability, /app/more. Moving between them changes the address without loading the page again
// (the socket to the hub stays open); the language (?lang=) goes along.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  { name: 'home' } | { name: 'alarm'; id: number } | { name: 'history' } | { name: 'availability' } | { name: 'more' };

const CHANGED = 'app:navigate';

/** The screen a path shows (an unknown path shows the start). */
export function routeOf(pathname: string): Route {
  const alarm = /^\/app\/alarm\/(\d{1,15})\/?$/.exec(pathname);
  if (alarm) return { name: 'alarm', id: Number(alarm[1]) };
  const section = /^\/app\/(history|availability|more)\/?$/.exec(pathname)?.[1];
  return section ? ({ name: section } as Route) : { name: 'home' };
}

/** A path of the app with the page's language kept. */
export function href(path: string): string {
  return `${path}${location.search}`;
}

/** Shows another screen. */
export function navigate(path: string): void {
  const target = new URL(path, location.href);
  if (!target.search) target.search = location.search;
  if (target.pathname + target.search === location.pathname + location.search) return;
  history.pushState(null, '', target);
  window.dispatchEvent(new Event(CHANGED));
  window.scrollTo(0, 0);
}

/** The screen shown now, following the back button and navigate(). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}

/** A click on a link of the app (not with a modifier key) shows its screen without loading the page. */
export function followLinks(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    const link = (event.target as Element).closest?.('a');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
    const url = new URL(link.href, location.href);
    // Another language is another page load: the words are chosen when the page starts.
    if (url.origin !== location.origin || !/^\/app(\/|$)/.test(url.pathname) || url.search !== location.search) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}
