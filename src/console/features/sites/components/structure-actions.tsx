import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, Space } from '../../../../shared/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { MoreIcon, TrashIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteSection } from '../api/delete-section';
import { useDeleteSectionGroup } from '../api/delete-section-group';
import { useDeleteSiteSpace } from '../api/delete-site-space';
import { useRemoveSectionFromGroup } from '../api/remove-section-from-group';
import { useUpdateSection } from '../api/update-section';
import { useUpdateSite } from '../api/update-site';
import {
  AddSiteSpaceDialog,
  AddToGroupDialog,
  EditSectionDialog,
  EditSiteSpaceDialog,
  RenameGroupDialog,
} from '../forms/structure-dialogs';
import { plural, SPACE_UNTITLED } from '../utils/labels';
import type { SiteRef } from '../utils/paths';
import { allGroups, allSiteSpaces, type StructureNode } from '../utils/structure';

interface Props {
  site: SiteRef;
  structure: SiteStructure;
  spaces: Space[];
  node: StructureNode;
  manage: boolean;
  /** Absent when the item is first (last) among its siblings. */
  onMoveUp?: () => void;
  onMoveDown?: () => void;
}

/** The "…" menu of a row of the structure; nothing for readers who may not change the site. */
export function StructureActions(props: Props) {
  if (!props.manage) return null;
  const { node } = props;
  if (node.kind === 'site-section-group') return <GroupActions {...props} group={node.group} />;
  if (node.kind === 'site-section') return <SectionActions {...props} section={node.section} />;
  return <SiteSpaceActions {...props} siteSpace={node.siteSpace} />;
}

function MoveItems({ onMoveUp, onMoveDown }: Pick<Props, 'onMoveUp' | 'onMoveDown'>) {
  return (
    <>
      <DropdownMenuItem disabled={!onMoveUp} onSelect={() => onMoveUp?.()}>
        Move up
      </DropdownMenuItem>
      <DropdownMenuItem disabled={!onMoveDown} onSelect={() => onMoveDown?.()}>
        Move down
      </DropdownMenuItem>
    </>
  );
}

function SectionActions({ site, structure, spaces, section, onMoveUp, onMoveDown }: Props & { section: SiteSection }) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'edit' | 'add-space' | 'group' | 'remove'>();
  const updateSite = useUpdateSite(site);
  const ungroup = useRemoveSectionFromGroup(site);
  const remove = useDeleteSection(site);
  const toast = useToast();
  const groups = allGroups(structure).filter((group) => group.id !== section.sectionGroup);
  const fail = (error: unknown) => toast.show(errorMessage(error), 'error');
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for section ${section.title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          <DropdownMenuItem onSelect={() => openDialog('edit')}>Edit…</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => openDialog('add-space')}>Add space…</DropdownMenuItem>
          <DropdownMenuItem
            disabled={section.default}
            onSelect={() =>
              updateSite.mutate(
                { defaultSiteSection: section.id },
                { onSuccess: () => toast.show(`“${section.title}” is the default section`), onError: fail },
              )
            }
          >
            Set as default section
          </DropdownMenuItem>
          <MoveItems onMoveUp={onMoveUp} onMoveDown={onMoveDown} />
          {groups.length > 0 && (
            <DropdownMenuItem onSelect={() => openDialog('group')}>Move to group…</DropdownMenuItem>
          )}
          {section.sectionGroup && (
            <DropdownMenuItem
              onSelect={() =>
                ungroup.mutate(
                  { groupId: section.sectionGroup!, sectionId: section.id },
                  { onSuccess: () => toast.show(`“${section.title}” left its group`), onError: fail },
                )
              }
            >
              Remove from group
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('remove')}>
            Remove…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <EditSectionDialog site={site} section={section} {...dialog('edit')} />
      <AddSiteSpaceDialog
        site={site}
        spaces={spaces}
        structure={structure}
        sectionId={section.id}
        {...dialog('add-space')}
      />
      <AddToGroupDialog site={site} structure={structure} section={section} {...dialog('group')} />
      <ConfirmDialog
        {...dialog('remove')}
        title="Remove section?"
        confirmLabel="Remove section"
        action={async () => {
          await remove.mutateAsync(section.id);
          toast.show(`Section “${section.title}” removed`);
        }}
      >
        <p>
          <strong>“{section.title}”</strong> leaves the site with its {plural(section.siteSpaces.length, 'space')}; the
          spaces themselves are not deleted.
          {section.default && ' Another section becomes the default.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

function SiteSpaceActions({
  site,
  structure,
  spaces,
  siteSpace,
  onMoveUp,
  onMoveDown,
}: Props & { siteSpace: SiteSpace }) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'edit' | 'remove'>();
  const updateSite = useUpdateSite(site);
  const updateSection = useUpdateSection(site);
  const remove = useDeleteSiteSpace(site);
  const toast = useToast();
  const title = siteSpace.space.title || SPACE_UNTITLED;
  const fail = (error: unknown) => toast.show(errorMessage(error), 'error');
  const setDefault = () => {
    const done = { onSuccess: () => toast.show(`“${title}” is the default`), onError: fail };
    if (siteSpace.section)
      updateSection.mutate({ sectionId: siteSpace.section, body: { defaultSiteSpace: siteSpace.id } }, done);
    else updateSite.mutate({ defaultSiteSpace: siteSpace.id }, done);
  };
  const last = allSiteSpaces(structure).length === 1;
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for space ${title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          <DropdownMenuItem onSelect={() => openDialog('edit')}>Edit…</DropdownMenuItem>
          <DropdownMenuItem disabled={siteSpace.default} onSelect={setDefault}>
            Set as default
          </DropdownMenuItem>
          <MoveItems onMoveUp={onMoveUp} onMoveDown={onMoveDown} />
          <DropdownMenuSeparator />
          <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('remove')}>
            Remove…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <EditSiteSpaceDialog site={site} siteSpace={siteSpace} spaces={spaces} {...dialog('edit')} />
      <ConfirmDialog
        {...dialog('remove')}
        title="Remove space from the site?"
        confirmLabel="Remove space"
        action={async () => {
          await remove.mutateAsync(siteSpace.id);
          toast.show(`“${title}” removed from the site`);
        }}
      >
        <p>
          <strong>“{title}”</strong> leaves the site; the space itself is not deleted.
          {siteSpace.default && !last && ' Another space here becomes the default.'}
          {last && ' The site will show nothing until you add a space again.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

function GroupActions({ site, structure, group, onMoveUp, onMoveDown }: Props & { group: SiteSectionGroup }) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'rename' | 'add' | 'remove'>();
  const remove = useDeleteSectionGroup(site);
  const toast = useToast();
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for group ${group.title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          <DropdownMenuItem onSelect={() => openDialog('rename')}>Rename…</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => openDialog('add')}>Add section…</DropdownMenuItem>
          <MoveItems onMoveUp={onMoveUp} onMoveDown={onMoveDown} />
          <DropdownMenuSeparator />
          <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('remove')}>
            Ungroup…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <RenameGroupDialog site={site} group={group} {...dialog('rename')} />
      <AddToGroupDialog site={site} structure={structure} group={group} {...dialog('add')} />
      <ConfirmDialog
        {...dialog('remove')}
        title="Ungroup sections?"
        confirmLabel="Ungroup"
        variant="primary"
        action={async () => {
          await remove.mutateAsync(group.id);
          toast.show(`Group “${group.title}” removed`);
        }}
      >
        <p>
          The group <strong>“{group.title}”</strong> goes away; its {plural(group.sections.length, 'section')} stay on
          the site, where the group was.
        </p>
      </ConfirmDialog>
    </>
  );
}
