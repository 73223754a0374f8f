// What the team's rows share: telling the list about a change, and focus on a step that appears.
import { useEffect, useRef } from 'preact/hooks';

export type Changed = (message: string, aboutMe?: boolean) => Promise<void>;
export interface RowProps {
  onChanged: Changed;
  /** A row starts a step: the last success notice is old news. */
  onStart: () => void;
}

/** Moves focus into a step that just appeared (a confirmation, an editor), for keyboards and screen readers. */
export function useFocusOnShow<T extends HTMLElement>(shown: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}
