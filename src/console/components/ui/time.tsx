import { fullTime, timeAgo } from '../../lib/time';

/** A relative time ("5 minutes ago") whose exact date shows on hover and is in the markup. */
export function RelativeTime({ value }: { value: string }) {
  return (
    <time dateTime={value} title={fullTime(value)}>
      {timeAgo(value)}
    </time>
  );
}
