import { useEffect, useState } from 'react';
import { createFileRoute, Link, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { Loading } from '../components/ui/states';
import { useToast } from '../components/ui/toast';
import { usePasswordResetCheck } from '../features/auth/api/password-reset';
import { ResetPasswordForm } from '../features/auth/forms/reset-password-form';
import { forgetLinkSecret, linkSecret } from '../lib/link-secret';

export const Route = createFileRoute('/reset-password')({
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const [token] = useState(linkSecret);
  // The secret leaves the address bar (and the history) once read.
  useEffect(() => {
    forgetLinkSecret();
  }, []);
  const check = usePasswordResetCheck(token);
  const router = useRouter();
  const toast = useToast();
  const expired = token === null || check.isError;
  return (
    <AuthLayout
      title={expired ? 'This link no longer works' : 'Choose a new password'}
      subtitle={
        expired
          ? 'Reset links work once, for 30 minutes, and only the newest one sent to an address.'
          : check.data
            ? `For the account ${check.data.email}.`
            : undefined
      }
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <DocumentTitle>Choose a new password</DocumentTitle>
      {expired ? (
        <p>
          <Link to="/forgot-password" className="btn btn-primary btn-block">
            Send me a new link
          </Link>
        </p>
      ) : check.data && token ? (
        <ResetPasswordForm
          token={token}
          tokens={check.data.tokens}
          onReset={(result) => {
            toast.show(
              [
                'Your password was reset.',
                result.signedOut > 0 &&
                  `${result.signedOut === 1 ? 'One session was' : `${result.signedOut} sessions were`} signed out.`,
                result.revokedTokens > 0 &&
                  `${result.revokedTokens === 1 ? 'One API token was' : `${result.revokedTokens} API tokens were`} revoked.`,
              ]
                .filter(Boolean)
                .join(' '),
            );
            void router.navigate({ to: '/', replace: true });
          }}
        />
      ) : (
        <Loading label="Checking the link…" />
      )}
    </AuthLayout>
  );
}
