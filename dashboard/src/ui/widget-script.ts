// The embeddable widget's script as the dashboard's previews load it.
import { useEffect, useState } from 'preact/hooks';

/** The widget script's API (widget/src/main.tsx), once the script has run. */
type PlauditApi = { mount(el: Element): void; unmount(el: Element): void; refresh(el?: Element): void };
export const plaudit = () => (globalThis as { Plaudit?: PlauditApi }).Plaudit;

/** Loads the widget's script once for the whole app (the CSP allows only this origin's scripts). */
export function useWidgetScript(): 'loading' | 'ready' | 'failed' {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>(plaudit() ? 'ready' : 'loading');
  useEffect(() => {
    if (plaudit()) return;
    let script = document.querySelector<HTMLScriptElement>('script[data-widget-preview]');
    if (!script) {
      script = document.createElement('script');
      script.src = '/embed/v1/widget.js';
      script.async = true;
      script.dataset.widgetPreview = '';
      document.head.append(script);
    }
    const ready = () => setState(plaudit() ? 'ready' : 'failed');
    const failed = () => {
      script!.remove();
      setState('failed');
    };
    script.addEventListener('load', ready);
    script.addEventListener('error', failed);
    return () => {
      script!.removeEventListener('load', ready);
      script!.removeEventListener('error', failed);
    };
  }, []);
  return state;
}
