// Shows a screen, fetching its chunk the first time it is opened (each chunk once per visit).
import { useEffect, useState } from 'preact/hooks';
import type { Screen, ScreenComponent } from '../routes.tsx';
import { Loading, Notice } from './components.tsx';

const loaded = new Map<Screen, ScreenComponent>();

export function ScreenView({ screen, params }: { screen: Screen; params: Record<string, string> }) {
  const ready = screen.lazy ? loaded.get(screen) : screen.component as ScreenComponent;
  const [, setTick] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (ready) return;
    setFailed(false);
    (screen.component as () => Promise<ScreenComponent>)().then(
      (c) => {
        loaded.set(screen, c);
        setTick((t) => t + 1);
      },
      () => setFailed(true),
    );
  }, [screen]);
  if (ready) {
    const Component = ready;
    return <Component params={params} />;
  }
  if (failed) {
    return (
      <Notice tone='error'>
        This page could not be loaded; the dashboard may have been updated. <a href={location.href}>Reload the page</a>
      </Notice>
    );
  }
  return <Loading />;
}
