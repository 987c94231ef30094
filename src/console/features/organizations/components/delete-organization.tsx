import { useId, useRef, useState } from 'react';
import type { Organization } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { TrashIcon } from '../../../components/ui/icons';
import { DeleteOrganizationDialog } from '../forms/delete-organization-dialog';
import '../organizations.css';

/** The General tab's last card, for admins: deleting the organization (behind its typed name). */
export function DeleteOrganization({ organization }: { organization: Organization }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <section className="card danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Delete organization
      </h2>
      <div className="danger-zone-row">
        <p className="section-text">
          Deletes {organization.title} with all its content, sites and settings, for good. Its members keep their
          accounts.
        </p>
        <Button ref={button} variant="danger" onClick={() => setOpen(true)}>
          <TrashIcon /> Delete organization…
        </Button>
      </div>
      <DeleteOrganizationDialog
        organization={organization}
        open={open}
        onOpenChange={setOpen}
        returnFocusRef={button}
      />
    </section>
  );
}
