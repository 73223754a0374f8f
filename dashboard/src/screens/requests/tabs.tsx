// The section's tabs, at the top of each of its screens.
import { useLocation } from '../../router.ts';
import { useAppPath } from '../../session.ts';

const TABS: [string, string][] = [
  ['Requests', '/requests'],
  ['Send from CSV', '/requests/bulk'],
  ['Statistics', '/requests/stats'],
  ['Settings', '/requests/settings'],
];

/** The section's tabs: the list, sending from a file, the statistics and the settings. */
export function RequestTabs() {
  const appPath = useAppPath();
  const { path } = useLocation();
  const here = path.replace(/\/+$/, '');
  const others = TABS.slice(1).map(([, p]) => appPath(p));
  return (
    <nav class='tabs' aria-label='Review request pages'>
      <ul>
        {TABS.map(([label, p]) => {
          const href = appPath(p);
          // A request's own page belongs to the first tab.
          const current = here === href || (p === '/requests' && here.startsWith(`${href}/`) && !others.includes(here));
          return (
            <li key={p}>
              <a href={href} aria-current={current ? 'page' : undefined}>{label}</a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
