// Loading data for a screen: the answer, the error, and a reload, with stale answers discarded.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
  /** Replaces the data after a change the screen made itself. */
  set: (data: T) => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  // A layout effect: the request starts before the browser paints, not a frame later.
  useLayoutEffect(() => {
    const ctl = new AbortController();
    const n = ++latest.current;
    setLoading(true);
    load(ctl.signal).then(
      (d) => {
        if (n !== latest.current) return;
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (e) => {
        if (n !== latest.current || e?.name === 'AbortError') return;
        setError(e instanceof ApiError ? e : new ApiError(0, String(e?.message ?? e)));
        setLoading(false);
      },
    );
    return () => ctl.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, set: setData };
}

/** Runs an action (a button's), keeping its pending state and its error for the form to show. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (...args: A): Promise<R | undefined> => {
    setPending(true);
    setError(undefined);
    try {
      return await fn(...args);
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, String((e as Error)?.message ?? e)));
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clearError: () => setError(undefined) };
}

/**
 * Calls `poll` while `active`, waiting longer each time (from `first` ms, ×1.5, at most `max`),
 * skipping while the tab is hidden; stops when inactive or when the screen is left. A new
 * `restart` value starts again from the shortest wait.
 */
export function usePolling(active: boolean, poll: () => void, restart: unknown = 0, first = 1000, max = 10_000) {
  const latest = useRef(poll);
  latest.current = poll;
  useEffect(() => {
    if (!active) return;
    let delay = first;
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(() => {
        if (!document.hidden) latest.current();
        delay = Math.min(max, delay * 1.5);
        next();
      }, delay);
    };
    next();
    return () => clearTimeout(timer);
  }, [active, restart]);
}
