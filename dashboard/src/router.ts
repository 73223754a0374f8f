// A small history router for /app: the location as a signal-like hook, links that push state,
// and patterns with :params. Deep links work because the server answers every /app path with the shell.
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  listeners.forEach((fn) => fn());
}

addEventListener('popstate', () => listeners.forEach((fn) => fn()));

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((t) => t + 1);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** `/app/o/:orgId/reviews/:id` against a path: its params, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      if (!s[i]) return null;
      params[p[i].slice(1)] = decodeURIComponent(s[i]);
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** Replaces the query string (filters, page) without a new history entry per keystroke. */
export function setQuery(values: Record<string, string | number | undefined | null>, replace = true): void {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  const qs = q.toString();
  navigate(`${location.pathname}${qs ? `?${qs}` : ''}`, replace);
}

/** A click on an in-app link moves without reloading (new tabs and modified clicks stay the browser's). */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element).closest('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.target || a.origin !== location.origin || !a.pathname.startsWith('/app')) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
