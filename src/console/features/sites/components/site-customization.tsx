import { Card } from '../../../components/ui/page';
import { useCustomization } from '../api/get-customization';
import { useSite } from '../api/get-site';
import { CustomizationForm } from '../forms/customization-form';
import type { SiteRef } from '../utils/paths';

/** How the published site looks: its customization, with a live preview. */
export function SiteCustomization({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const customization = useCustomization(ref);
  return (
    <Card title="Customization" id="site-customization">
      <CustomizationForm siteRef={ref} customization={customization} canEdit={site.permissions.admin} />
    </Card>
  );
}
