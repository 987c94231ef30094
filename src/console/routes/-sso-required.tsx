import { useQuery } from '@tanstack/react-query';
import { DocumentTitle } from '../components/ui/page';
import { SsoRequired } from '../features/auth/components/sso-required';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';

/**
 * The organization enforces single sign-on and this session did not come through its provider: its name (from the
 * list of the caller's organizations, which the refusal does not hide) and the way in.
 */
export function SsoRequiredState({ organizationId }: { organizationId: string }) {
  const organizations = useQuery(organizationsQueryOptions());
  const title = organizations.data?.find((organization) => organization.id === organizationId)?.title;
  return (
    <>
      <DocumentTitle>{title ? `${title} requires single sign-on` : 'Single sign-on required'}</DocumentTitle>
      <SsoRequired organizationId={organizationId} title={title} />
    </>
  );
}
