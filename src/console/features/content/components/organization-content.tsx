import { PageHeader } from '../../../components/ui/page';
import { EmptyState } from '../../../components/ui/states';
import { FolderIcon } from '../../../components/ui/icons';
import { useCollections } from '../api/get-collections';
import { useSpaces } from '../api/get-spaces';
import { buildTree } from '../utils/tree';
import { ContentTree } from './content-tree';
import { CreateButtons } from './create-buttons';
import '../content.css';

/** The organization home: every collection and space as a tree. */
export function OrganizationContent({ organizationId, canCreate }: { organizationId: string; canCreate: boolean }) {
  const collections = useCollections(organizationId);
  const spaces = useSpaces(organizationId);
  const nodes = buildTree(collections, spaces);
  return (
    <>
      <PageHeader
        title="Content"
        description="Collections group spaces; spaces hold your documentation."
        actions={canCreate && nodes.length > 0 && <CreateButtons organizationId={organizationId} />}
      />
      {nodes.length === 0 ? (
        <EmptyState
          icon={<FolderIcon width={28} height={28} />}
          title="No collections or spaces yet"
          action={canCreate && <CreateButtons organizationId={organizationId} />}
        >
          {canCreate
            ? 'Create a space to start writing, or a collection to group spaces.'
            : 'Nothing here is shared with you yet.'}
        </EmptyState>
      ) : (
        <div className="panel">
          <ContentTree nodes={nodes} label="Collections and spaces" />
        </div>
      )}
    </>
  );
}
