import { Outlet } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useSpaces } from '../features/content/api/get-spaces';
import { InstalledOn } from '../features/integrations/components/installed-on';
import { useOrganization } from '../features/organizations/api/get-organization';
import { useSite } from '../features/sites/api/get-site';
import { AdaptiveContent } from '../features/sites/components/adaptive-content';
import { ShareLinks } from '../features/sites/components/share-links';
import { SiteHeader, SiteTabs } from '../features/sites/components/site-view';
import { SiteSettings } from '../features/sites/components/site-settings';
import { SiteCustomization } from '../features/sites/components/site-customization';
import { StructureEditor } from '../features/sites/components/structure-editor';
import {
  siteRoute,
  siteStructureRoute,
  siteShareLinksRoute,
  siteAdaptiveRoute,
  siteSettingsRoute,
  siteCustomizationRoute,
} from './site';

export function SiteLayout() {
  const params = siteRoute.useParams();
  const organization = useOrganization(params.organizationId);
  return (
    <div className="site-page">
      <SiteHeader site={params} organizationTitle={organization.title} />
      <SiteTabs site={params} />
      <Outlet />
    </div>
  );
}

function useSiteDocumentTitle(part: string): string {
  const params = siteRoute.useParams();
  const organization = useOrganization(params.organizationId);
  const site = useSite(params);
  return [part, site.title, organization.title].join(' · ');
}

export function SiteStructurePage() {
  const params = siteStructureRoute.useParams();
  const spaces = useSpaces(params.organizationId);
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Structure')}</DocumentTitle>
      <StructureEditor site={params} spaces={spaces.filter((space) => !space.deletedAt)} />
    </>
  );
}

export function SiteShareLinksPage() {
  const params = siteShareLinksRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Share links')}</DocumentTitle>
      <ShareLinks site={params} />
    </>
  );
}

export function SiteAdaptivePage() {
  const params = siteAdaptiveRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Adaptive content')}</DocumentTitle>
      <AdaptiveContent site={params} />
    </>
  );
}

export function SiteSettingsPage() {
  const params = siteSettingsRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Settings')}</DocumentTitle>
      <SiteSettings site={params} />
      <InstalledOn organizationId={params.organizationId} kind="site" id={params.siteId} />
    </>
  );
}

export function SiteCustomizationPage() {
  const params = siteCustomizationRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Customization')}</DocumentTitle>
      <SiteCustomization site={params} />
    </>
  );
}
