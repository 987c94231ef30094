import type { ChangeRequest, ChangeRequestStatus } from '../../../../shared/contract';

export const STATUS_LABELS: Record<ChangeRequestStatus, { label: string; tab: string; empty: string }> = {
  open: { label: 'Open', tab: 'Open', empty: 'No change request waits for a review.' },
  draft: { label: 'Draft', tab: 'Drafts', empty: 'No drafts: change requests being written show here.' },
  merged: { label: 'Merged', tab: 'Merged', empty: 'Nothing has been merged yet.' },
  archived: { label: 'Archived', tab: 'Archived', empty: 'No archived change requests.' },
};

export const STATUS_ORDER: ChangeRequestStatus[] = ['open', 'draft', 'merged', 'archived'];

export const CHANGE_REQUEST_UNTITLED = 'Untitled change request';

export function changeRequestTitle(changeRequest: Pick<ChangeRequest, 'subject'>): string {
  return changeRequest.subject.trim() || CHANGE_REQUEST_UNTITLED;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
