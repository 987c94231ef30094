import type { ReactNode } from 'react';
import { LogoMark } from '../ui/icons';

/** The centred card of the sign-in and sign-up pages. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <div className="auth-brand">
          <LogoMark className="brand-mark" width={36} height={36} />
          <span className="brand-name">Docspace</span>
        </div>
        <h1 className="auth-title">{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
        {footer && <p className="auth-footer">{footer}</p>}
      </div>
    </main>
  );
}
