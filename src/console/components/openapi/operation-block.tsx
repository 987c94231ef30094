import { useQuery } from '@tanstack/react-query';
import type { operationViewSchema } from '../../../shared/contract';
import type { OperationBlock } from '../../../shared/openapi-blocks';
import { api, isApiError } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { ApiOperation } from './api-operation';
import './openapi.css';

/**
 * A page's `{% openapi-operation %}` block in the console's previews: the operation of the spec's latest version
 * (`GET …/openapi/{slug}/versions/latest/operation`), or why it cannot be shown.
 */
export function OperationBlockView({ organizationId, block }: { organizationId: string; block: OperationBlock }) {
  const label = `${block.method.toUpperCase()} ${block.path}`;
  const operation = useQuery({
    queryKey: queryKeys.openapi.operation(organizationId, block.spec, block.method, block.path),
    queryFn: ({ signal }) =>
      api.get<typeof operationViewSchema>(
        `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(block.spec)}/versions/latest/operation`,
        { query: { path: block.path, method: block.method }, signal },
      ),
    retry: (count, error) => !isApiError(error, 404) && !isApiError(error, 400) && count < 2,
  });
  if (operation.isPending) {
    return (
      <div className="api-operation api-missing" aria-busy="true">
        <p>Loading the API operation {label}…</p>
      </div>
    );
  }
  if (operation.isError) {
    return (
      <div className="api-operation api-missing" role="note">
        <p>
          The API operation {label} of the specification “{block.spec}” is not available
          {isApiError(operation.error) ? `: ${operation.error.message}` : '.'}
        </p>
      </div>
    );
  }
  return <ApiOperation operation={operation.data} headingLevel={4} />;
}

/** A block shown where the organization is not known (no data to fetch): what it refers to. */
export function OperationBlockPlaceholder({ block }: { block: OperationBlock }) {
  return (
    <div className="api-operation api-missing" role="note">
      <p>
        API operation <code>{`${block.method.toUpperCase()} ${block.path}`}</code> of the specification “{block.spec}”
      </p>
    </div>
  );
}
