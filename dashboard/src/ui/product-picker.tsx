// Choosing one product of the catalog by typing: a combobox (WAI-ARIA's pattern: the list follows
// the text, arrows move, Enter picks, Escape closes) over the products whose name holds the text,
// or whose id of yours is the text. The inbox filters its reviews by the product picked; the widget
// screen fills the product's snippets with it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { useLoad } from './hooks.ts';

type Product = Schemas['Product'];

/** The products a text names: the one whose id of yours it is, then those whose name holds it. */
async function productsNamed(orgId: string, text: string, signal: AbortSignal): Promise<Product[]> {
  const path = '/organizations/{orgId}/products' as const;
  const q = text.trim().slice(0, 200);
  const [byName, byId] = await Promise.all([
    api.get(path, { params: { orgId }, query: { q, limit: 8 }, signal }),
    q ? api.get(path, { params: { orgId }, query: { external_id: q, limit: 1 }, signal }) : undefined,
  ]);
  const exact = byId?.data ?? [];
  return [...exact, ...byName.data.filter((p) => !exact.some((e) => e.id === p.id))].slice(0, 8);
}

export function ProductPicker({ label, value, onPick, placeholder = 'Any product' }: {
  label: string;
  /** What the empty field says: 'Any product' where none picked means all of them. */
  placeholder?: string;
  /** The product picked (its id), '' for none. */
  value: string;
  onPick: (id: string) => void;
}) {
  const orgId = useOrgId();
  const id = 'product-picker';
  const picked = useLoad(
    (signal) =>
      value
        ? api.get('/organizations/{orgId}/products/{id}', { params: { orgId, id: value }, signal }).catch(() => null)
        : Promise.resolve(null),
    [orgId, value],
  );
  const pickedName = picked.data?.name ?? '';
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [search, setSearch] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setText(pickedName), [pickedName]);
  // The list follows the text a quarter second after the last keystroke, not at each one.
  const wanted = text === pickedName ? '' : text;
  useEffect(() => {
    if (!open) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSearch(wanted), 250);
    return () => clearTimeout(timer.current);
  }, [wanted, open]);
  const options = useLoad(
    (signal) => (open ? productsNamed(orgId, search, signal) : Promise.resolve([])),
    [orgId, search, open],
  );
  const list = open ? options.data ?? [] : [];
  // Until the list answers the text as typed, it says so (aria-busy): assistive technology, and
  // whoever waits for the matches, know that the options shown may still change.
  const busy = open && (wanted !== search || options.loading);
  // New matches drop the highlight, so that Enter never picks a product the person did not see highlighted.
  useEffect(() => setActive(-1), [options.data]);

  const pick = (p: Product) => {
    setOpen(false);
    setActive(-1);
    setText(p.name);
    onPick(p.id);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
    setText(pickedName);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (list.length ? (a + step + list.length) % list.length : -1));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      if (list[active]) pick(list[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  return (
    <div class='field product-picker'>
      <label for={id}>{label}</label>
      <div class='picker-row'>
        <input
          id={id}
          type='text'
          role='combobox'
          autocomplete='off'
          maxLength={200}
          placeholder={placeholder}
          aria-autocomplete='list'
          aria-expanded={open}
          aria-controls={`${id}-list`}
          aria-activedescendant={open && list[active] ? `${id}-${active}` : undefined}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        {value && (
          <button
            type='button'
            class='button'
            onClick={() => {
              setText('');
              onPick('');
            }}
          >
            Clear<span class='visually-hidden'>{` the product ${pickedName}`}</span>
          </button>
        )}
      </div>
      <ul
        id={`${id}-list`}
        role='listbox'
        aria-label={`${label}: matches`}
        class='picker-list'
        hidden={!open}
        aria-busy={busy}
      >
        {list.map((p, i) => (
          <li
            key={p.id}
            id={`${id}-${i}`}
            role='option'
            aria-selected={i === active}
            class={i === active ? 'active' : undefined}
            // Keeps the focus in the input, so that the click picks before the input's blur closes the list.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(p)}
          >
            <span class='picker-name'>{p.name}</span>
            <span class='muted small'>{p.external_id}{p.archived ? ' · archived' : ''}</span>
          </li>
        ))}
        {open && options.data && list.length === 0 && (
          <li role='option' aria-disabled='true' aria-selected={false} class='muted'>No product matches.</li>
        )}
      </ul>
    </div>
  );
}
