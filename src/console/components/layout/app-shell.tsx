import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { LogoMark } from '../ui/icons';

/** The frame of every signed-in page: brand, organization switcher, account menu. */
export function AppShell({
  switcher,
  notifications,
  account,
  children,
}: {
  switcher: ReactNode;
  /** The bell: unread notifications and the way to the inbox. */
  notifications?: ReactNode;
  account: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Docspace home">
          <LogoMark className="brand-mark" />
          <span className="brand-name">Docspace</span>
        </Link>
        <span className="topbar-divider" aria-hidden="true" />
        <div className="topbar-switcher">{switcher}</div>
        <div className="topbar-spacer" />
        {notifications}
        {account}
      </header>
      {children}
    </div>
  );
}

/** A section with its sidebar navigation and the page itself. */
export function SidebarLayout({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  return (
    <div className="with-sidebar">
      <aside className="sidebar">{sidebar}</aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="main main-plain" tabIndex={-1}>
      {children}
    </main>
  );
}
