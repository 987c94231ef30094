import type { OpenApiSpec } from '../../../../shared/contract';

const ERROR_LABELS: Record<NonNullable<OpenApiSpec['lastProcessErrorCode']>, string> = {
  FETCH_TIMEOUT: 'Fetch timed out',
  FETCH_ERROR: 'Could not fetch',
  PARSE_ERROR: 'Invalid specification',
};

/** Where a spec's processing stands, as a badge announced when it changes. */
export function SpecState({ spec }: { spec: OpenApiSpec }) {
  const [label, tone] =
    spec.processingState === 'pending'
      ? ['Waiting to be processed', 'badge-warning']
      : spec.processingState === 'progress'
        ? ['Processing…', 'badge-warning']
        : spec.lastProcessErrorCode
          ? [ERROR_LABELS[spec.lastProcessErrorCode], 'badge-danger']
          : ['Processed', 'badge-public'];
  return (
    <span className={`badge ${tone}`} role="status">
      {label}
    </span>
  );
}
