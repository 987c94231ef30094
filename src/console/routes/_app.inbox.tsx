import { createFileRoute } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { DocumentTitle, PageHeader } from '../components/ui/page';
import { Inbox } from '../features/notifications/components/inbox';

/** `/inbox`: the signed-in person's notifications. */
export const Route = createFileRoute('/_app/inbox')({
  component: InboxPage,
});

function InboxPage() {
  return (
    <PlainLayout>
      <DocumentTitle>Notifications</DocumentTitle>
      <div className="account-page">
        <PageHeader
          title="Notifications"
          description="What needs you, across your organizations. Choose what reaches you by e-mail in your account settings."
        />
        <Inbox />
      </div>
    </PlainLayout>
  );
}
