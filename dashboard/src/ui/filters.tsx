// A list's filters kept in the URL: changing one shows the first page of the new answer.
import { setQuery, useLocation } from '../router.ts';

/** The named filters as the URL holds them ('' when absent), and a key that changes with any of them. */
export function useQueryFilters<K extends string>(names: readonly K[]): { filters: Record<K, string>; key: string } {
  const { query } = useLocation();
  const filters = Object.fromEntries(names.map((k) => [k, query.get(k) ?? ''])) as Record<K, string>;
  return { filters, key: names.map((k) => filters[k]).join('|') };
}

export function QuerySelect(
  { label, name, value, options }: { label: string; name: string; value: string; options: [string, string][] },
) {
  return (
    <div class='field'>
      <label for={`q-${name}`}>{label}</label>
      <select id={`q-${name}`} value={value} onChange={(e) => setQuery({ [name]: e.currentTarget.value, page: null })}>
        {options.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
    </div>
  );
}

export function QueryDate({ label, name, value }: { label: string; name: string; value: string }) {
  return (
    <div class='field'>
      <label for={`q-${name}`}>{label}</label>
      <input
        id={`q-${name}`}
        type='date'
        value={value}
        onChange={(e) => setQuery({ [name]: e.currentTarget.value, page: null })}
      />
    </div>
  );
}
