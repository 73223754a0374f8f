// The frame around every screen: the organization (and a switcher for people in several), the
// sections, the person and sign-out. On a phone the sections fold behind a menu button.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { navigate, onLinkClick, useLocation } from './router.ts';
import { NAV } from './routes.tsx';
import { useAppPath, useWorkspace } from './session.ts';

export function Layout({ title, children }: { title: string; children: ComponentChildren }) {
  const w = useWorkspace();
  const appPath = useAppPath();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    document.title = `${title} · ${w.org.name} · Plaudit`;
    setMenuOpen(false);
  }, [title, w.org.id, path]);
  // A new screen moves focus to its heading, so screen readers announce where they are.
  useEffect(() => {
    (document.querySelector('main h1') as HTMLElement | null)?.focus({ preventScroll: true });
  }, [path]);

  const switchOrg = (id: string) => {
    const section = path.replace(/^\/app\/o\/[^/]+/, '').split('/').slice(0, 2).join('/') || '/reviews';
    navigate(`/app/o/${id}${section}`);
  };

  return (
    <div class='layout' onClick={onLinkClick}>
      <a class='skip-link' href='#main'>Skip to content</a>
      <header class='topbar'>
        <a class='brand' href={appPath('/reviews')}>Plaudit</a>
        {w.session.organizations.length > 1
          ? (
            <label class='org-switch'>
              <span class='visually-hidden'>Organization</span>
              <select value={w.org.id} onChange={(e) => switchOrg(e.currentTarget.value)}>
                {w.session.organizations.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
              </select>
            </label>
          )
          : <span class='org-name'>{w.org.name}</span>}
        <button
          type='button'
          class='button menu-button'
          aria-expanded={menuOpen}
          aria-controls='sections'
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
      </header>
      <nav id='sections' class={`sidebar${menuOpen ? ' open' : ''}`} aria-label='Sections'>
        <ul>
          {NAV.filter((n) => !n.adminOnly || w.isAdmin).map((n) => {
            const href = appPath(n.path);
            const current = path === href || path.startsWith(`${href}/`);
            return (
              <li key={n.path}>
                <a href={href} aria-current={current ? 'page' : undefined}>{n.label}</a>
              </li>
            );
          })}
        </ul>
        <div class='person'>
          <p class='person-email' title={w.session.email}>{w.session.email}</p>
          <p class='muted small'>{w.org.role} of {w.org.name}</p>
          <button type='button' class='button' onClick={() => void w.signOut()}>Sign out</button>
        </div>
      </nav>
      <main id='main' class='content'>{children}</main>
    </div>
  );
}
