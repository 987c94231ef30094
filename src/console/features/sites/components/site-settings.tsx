import { Card } from '../../../components/ui/page';
import { useSite } from '../api/get-site';
import { useSiteStructure } from '../api/get-site-structure';
import { SiteSettingsForm } from '../forms/site-settings-form';
import { VisitorAuthForm } from '../forms/visitor-auth-form';
import type { SiteRef } from '../utils/paths';
import '../sites.css';

/** The site's settings, and (for those who manage it) its visitor authentication. */
export function SiteSettings({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const structure = useSiteStructure(ref);
  return (
    <div className="stack">
      <Card title="Settings" id="site-settings">
        <SiteSettingsForm key={site.id} siteRef={ref} site={site} structure={structure} />
      </Card>
      {site.permissions.admin && (
        <Card title="Visitor authentication" id="visitor-auth">
          <VisitorAuthForm site={ref} />
        </Card>
      )}
    </div>
  );
}
