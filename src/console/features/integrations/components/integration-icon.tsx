import type { Integration } from '../../../../shared/contract';
import '../integrations.css';

/** The integration's icon, or its initial on a tile. */
export function IntegrationIcon({ integration, size = 40 }: { integration: Integration; size?: number }) {
  if (integration.urls.icon) {
    return <img className="integration-icon" src={integration.urls.icon} alt="" width={size} height={size} />;
  }
  return (
    <span
      className="integration-icon integration-icon-initial"
      style={{ width: size, height: size }}
      aria-hidden="true"
    >
      {integration.title.charAt(0).toUpperCase()}
    </span>
  );
}
