import { createFileRoute } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { Card, DocumentTitle, PageHeader } from '../components/ui/page';
import { mailStatusQueryOptions } from '../features/outbox/api/outbox';
import { MailStatus, OutboxList } from '../features/outbox/components/outbox';

/**
 * `/instance/outbox`: the instance owner's view of outgoing e-mail: where it goes, what was sent, what failed or
 * waits, and (without SMTP) the held messages to read and pass on. Anyone else gets the server's 404.
 */
export const Route = createFileRoute('/_app/instance/outbox')({
  loader: ({ context }) => context.queryClient.prefetchQuery(mailStatusQueryOptions()),
  component: OutboxPage,
});

function OutboxPage() {
  return (
    <PlainLayout>
      <DocumentTitle>Outbox</DocumentTitle>
      <div className="account-page">
        <PageHeader title="Outbox" description="Every e-mail this server wrote, and how its delivery went." />
        <Card title="Delivery" id="outbox-delivery">
          <MailStatus />
        </Card>
        <Card title="Messages" id="outbox-messages">
          <OutboxList />
        </Card>
      </div>
    </PlainLayout>
  );
}
