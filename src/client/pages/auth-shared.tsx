import type { ReactNode } from 'react';
import type { ClientConfig } from '../../shared/types';
import { RETURN_TO_KEY } from '../navigation/navigator';

/** A centred card for the login, register and reset forms. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page mx-auto py-md-4" style={{ maxWidth: 440 }}>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h1 className="h4 mb-4 text-center">{title}</h1>
          {children}
        </div>
        {footer && <div className="card-footer text-center small py-3">{footer}</div>}
      </div>
    </div>
  );
}

/** Where to go after logging in: the server's `next`, else the page remembered on a 401. */
export function afterLoginUrl(config: ClientConfig, next: string | undefined): string {
  const remembered = typeof sessionStorage !== 'undefined' ? sessionStorage.getItem(RETURN_TO_KEY) : null;
  if (remembered) sessionStorage.removeItem(RETURN_TO_KEY);
  const home = `${config.relative_path}/`;
  if (next && next !== home && next !== config.relative_path) return next;
  return remembered ?? next ?? home;
}

/** A form error box, announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert-danger py-2" role="alert">
      {message}
    </div>
  );
}
