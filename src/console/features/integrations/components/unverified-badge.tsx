import '../integrations.css';

/** Says that an integration is not verified: nobody reviewed its code (`verified` is false). */
export function UnverifiedBadge() {
  return (
    <span className="badge badge-warning" title="Nobody has reviewed this integration's code">
      Unverified
    </span>
  );
}
