// A list screen's tabs by status: links to `?status=…` that change the URL's query in place
// (back to the first page), the current one marked. `onPick` runs first (a screen clears its notice).
import { setQuery } from '../router.ts';

export function StatusTabs<V extends string>(
  { label, tabs, current, onPick }: {
    label: string;
    tabs: readonly (readonly [V, string])[];
    current: V;
    onPick?: () => void;
  },
) {
  return (
    <nav class='tabs' aria-label={label}>
      <ul>
        {tabs.map(([value, name]) => (
          <li key={value}>
            <a
              href={`?status=${value}`}
              aria-current={current === value ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                onPick?.();
                setQuery({ status: value, page: null }, false);
              }}
            >
              {name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
