import { useRef, useState } from 'react';
import type { TranslationSettings } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { useDeleteTranslation } from '../api/delete-translation';
import { useTranslations } from '../api/get-translations';
import { TranslationDialog } from '../forms/translation-dialog';
import { languageName } from '../utils/languages';
import '../translations.css';

/** The organization's translation settings: a title and the languages content is translated into. */
export function TranslationsList({ organizationId, canCreate }: { organizationId: string; canCreate: boolean }) {
  const translations = useTranslations(organizationId);
  const [creating, setCreating] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="section">
      <div className="section-header">
        <p className="section-text">Which languages the organization's content is translated into.</p>
        {canCreate && (
          <Button ref={button} variant="primary" onClick={() => setCreating(true)}>
            <PlusIcon /> New translation
          </Button>
        )}
      </div>
      {translations.isPending ? (
        <Loading label="Loading translations…" />
      ) : translations.isError ? (
        <ErrorState error={translations.error} onRetry={() => void translations.refetch()} />
      ) : translations.data.length === 0 ? (
        <EmptyState title="No translations yet">
          {canCreate ? 'Create one and choose its languages.' : 'Admins set up translations.'}
        </EmptyState>
      ) : (
        <ul className="panel team-list" aria-label="Translations">
          {translations.data.map((translation) => (
            <TranslationItem key={translation.id} organizationId={organizationId} translation={translation} />
          ))}
        </ul>
      )}
      {canCreate && (
        <TranslationDialog
          organizationId={organizationId}
          open={creating}
          onOpenChange={setCreating}
          returnFocusRef={button}
        />
      )}
    </div>
  );
}

function TranslationItem({
  organizationId,
  translation,
}: {
  organizationId: string;
  translation: TranslationSettings;
}) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const remove = useDeleteTranslation(organizationId);
  const toast = useToast();
  return (
    <li className="team-item translation-item">
      <div className="members-person-text">
        <span className="team-title">{translation.title}</span>
        <span className="team-meta">
          {translation.languages.length === 0
            ? 'No language yet'
            : translation.languages.map((code) => languageName(code)).join(', ')}{' '}
          · updated <RelativeTime value={translation.updatedAt} />
        </span>
      </div>
      {translation.permissions.edit && (
        <div className="page-actions">
          <Button ref={editButton} size="sm" aria-label={`Edit ${translation.title}`} onClick={() => setDialog('edit')}>
            <EditIcon /> Edit
          </Button>
          <Button
            ref={deleteButton}
            size="sm"
            variant="danger"
            aria-label={`Delete ${translation.title}`}
            onClick={() => setDialog('delete')}
          >
            <TrashIcon /> Delete
          </Button>
          <TranslationDialog
            organizationId={organizationId}
            translation={translation}
            open={dialog === 'edit'}
            onOpenChange={(open) => setDialog(open ? 'edit' : null)}
            returnFocusRef={editButton}
          />
          <ConfirmDialog
            open={dialog === 'delete'}
            onOpenChange={(open) => setDialog(open ? 'delete' : null)}
            returnFocusRef={deleteButton}
            title="Delete translation?"
            confirmLabel="Delete translation"
            action={async () => {
              await remove.mutateAsync(translation);
              toast.show(`“${translation.title}” deleted`);
            }}
          >
            <p>
              The translation settings <strong>“{translation.title}”</strong> are deleted.
            </p>
          </ConfirmDialog>
        </div>
      )}
    </li>
  );
}
