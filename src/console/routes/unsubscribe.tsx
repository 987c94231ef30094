import { createFileRoute, Link } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { Button } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { useUnsubscribe } from '../features/notifications/api/notifications';
import { errorMessage } from '../lib/api-client';
import { searchParams, text } from './-url';

const unsubscribeSearch = searchParams<{ t: string }>({ t: text(2000) });

export const Route = createFileRoute('/unsubscribe')({
  validateSearch: unsubscribeSearch,
  component: UnsubscribePage,
});

/**
 * Where a notification mail's unsubscribe link leads when opened (a GET changes nothing: mail scanners open
 * links): one button stops that kind of mail; the inbox keeps it.
 */
function UnsubscribePage() {
  const { t } = Route.useSearch();
  const unsubscribe = useUnsubscribe();
  return (
    <AuthLayout
      title="Stop these e-mails"
      footer={
        <Link to="/account" hash="account-notifications">
          Notification settings
        </Link>
      }
    >
      <DocumentTitle>Unsubscribe</DocumentTitle>
      {unsubscribe.isSuccess ? (
        <p className="notice notice-info" role="status">
          Done: “{unsubscribe.data.label}” no longer sends e-mail. Such notifications stay in your inbox.
        </p>
      ) : !t ? (
        <p className="notice notice-warning" role="alert">
          This link is incomplete. Choose what you receive in your notification settings.
        </p>
      ) : (
        <div className="form">
          <p>Stop the e-mails of this kind of notification? They will still appear in your inbox.</p>
          {unsubscribe.isError && (
            <p className="notice notice-warning" role="alert">
              {errorMessage(unsubscribe.error)}
            </p>
          )}
          <Button
            variant="primary"
            className="btn-block"
            loading={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate(t)}
          >
            Unsubscribe
          </Button>
        </div>
      )}
    </AuthLayout>
  );
}
