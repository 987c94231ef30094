import type { ReactNode } from 'react';

export function PageHeader({
  title,
  icon,
  description,
  actions,
  breadcrumbs,
}: {
  title: ReactNode;
  icon?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  breadcrumbs?: ReactNode;
}) {
  return (
    <header className="page-header">
      {breadcrumbs}
      <div className="page-header-row">
        <div className="page-header-text">
          <h1 className="page-title">
            {icon && <span className="page-title-icon">{icon}</span>}
            <span>{title}</span>
          </h1>
          {description && <p className="page-description">{description}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
    </header>
  );
}

/** A trail of links; the last item is the current page. */
export function Breadcrumbs({ children }: { children: ReactNode[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {children.map((child, index) => (
          <li key={index} aria-current={index === children.length - 1 ? 'page' : undefined}>
            {child}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Card({ title, children, id }: { title?: ReactNode; children: ReactNode; id?: string }) {
  return (
    <section className="card" aria-labelledby={title && id ? `${id}-title` : undefined}>
      {title && (
        <h2 className="card-title" id={id ? `${id}-title` : undefined}>
          {title}
        </h2>
      )}
      {children}
    </section>
  );
}

/** The browser tab's title; React hoists it into <head>. */
export function DocumentTitle({ children }: { children: string }) {
  return <title>{children ? `${children} · Docspace` : 'Docspace'}</title>;
}
