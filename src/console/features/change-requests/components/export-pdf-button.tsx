import type { ChangeRequest } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { DownloadIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { download } from '../../../lib/download';
import { useExportPdf } from '../api/export-pdf';

/** Downloads the change request as PDF, or only one of its pages. */
export function ExportPdfButton({
  changeRequest,
  page,
}: {
  changeRequest: ChangeRequest;
  page?: { id: string; title: string };
}) {
  const exportPdf = useExportPdf(changeRequest.space, changeRequest.number);
  const toast = useToast();
  return (
    <Button
      size="sm"
      variant={page ? 'ghost' : 'secondary'}
      loading={exportPdf.isPending}
      aria-label={page ? `Export ${page.title || 'Untitled'} as PDF` : undefined}
      onClick={() =>
        exportPdf.mutate(page?.id, {
          onSuccess: ({ url }) => {
            download(url, `change-request-${changeRequest.number}${page ? `-${page.id}` : ''}.pdf`);
            toast.show('PDF export started');
          },
          onError: (error) => toast.show(errorMessage(error), 'error'),
        })
      }
    >
      <DownloadIcon /> {page ? 'PDF' : 'Export PDF'}
    </Button>
  );
}
