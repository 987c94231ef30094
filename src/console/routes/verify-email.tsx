import { useEffect, useRef, useState } from 'react';
import { createFileRoute, Link } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { Loading } from '../components/ui/states';
import { useVerifyEmail } from '../features/auth/api/verify-email';
import { errorMessage } from '../lib/api-client';
import { forgetLinkSecret, linkSecret } from '../lib/link-secret';

export const Route = createFileRoute('/verify-email')({
  component: VerifyEmailPage,
});

/** Where a link confirming an address lands: it is followed at once, and the page says what it did. */
function VerifyEmailPage() {
  const [token] = useState(linkSecret);
  const verify = useVerifyEmail();
  const started = useRef(false);
  useEffect(() => {
    forgetLinkSecret();
    if (token && !started.current) {
      started.current = true;
      verify.mutate(token);
    }
  }, [token, verify]);
  const failed = token === null || verify.isError;
  return (
    <AuthLayout
      title={failed ? 'This link no longer works' : verify.isSuccess ? 'Address confirmed' : 'Confirming your address'}
      footer={<Link to="/">Open Docspace</Link>}
    >
      <DocumentTitle>Confirm your address</DocumentTitle>
      {failed ? (
        <div className="notice notice-warning" role="alert">
          <p>
            {verify.isError ? errorMessage(verify.error) : 'The link is incomplete.'} Links confirming an address work
            for 48 hours, once; sign in and ask for a new one from your account settings.
          </p>
        </div>
      ) : verify.isSuccess ? (
        <div className="notice notice-info" role="status">
          <p>
            {verify.data.changed
              ? `Your account now uses ${verify.data.email}. Its other sessions were signed out.`
              : `${verify.data.email} is confirmed: invitations sent to it now reach you.`}
          </p>
        </div>
      ) : (
        <Loading label="Confirming…" />
      )}
    </AuthLayout>
  );
}
