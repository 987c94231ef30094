import { Link } from '@tanstack/react-router';
import { Card } from '../../../components/ui/page';
import { CopyButton } from '../../../components/ui/copy-button';
import { useAdaptiveSchema } from '../api/get-adaptive-schema';
import { useSite } from '../api/get-site';
import { useTemplateConditions } from '../api/get-template-conditions';
import { AdaptiveSchemaForm } from '../forms/adaptive-schema-form';
import type { SiteRef } from '../utils/paths';
import '../sites.css';

/** The claims visitors carry, and the conditions sections and site spaces can test them with. */
export function AdaptiveContent({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const schema = useAdaptiveSchema(ref);
  const templates = useTemplateConditions(ref);
  const applies = site.adaptiveContent.enabled || site.visibility === 'visitor-auth';
  return (
    <div className="stack">
      {!applies && (
        <p className="notice notice-info">
          <span>
            Adaptive content is off: conditions are saved but not applied to visitors. Turn it on in{' '}
            <Link to="/o/$organizationId/sites/$siteId/settings" params={ref}>
              Settings
            </Link>
            .
          </span>
        </p>
      )}
      <Card title="Claims schema" id="adaptive-schema">
        <AdaptiveSchemaForm
          key={schema.updatedAt}
          site={ref}
          jsonSchema={schema.jsonSchema}
          readOnly={!site.permissions.editAdaptiveSchema}
        />
      </Card>
      <Card title="Template conditions" id="template-conditions">
        {templates.length === 0 ? (
          <p className="section-text">The schema has no claims yet: add one and its example conditions appear here.</p>
        ) : (
          <>
            <p className="section-text">
              Copy one into the condition of a section or a space (Structure, then its Edit…), where they can also be
              picked.
            </p>
            <ul className="template-list" aria-label="Template conditions">
              {templates.map((template) => (
                <li key={template.condition} className="template-item">
                  <code className="template-code">{template.condition}</code>
                  <span className="template-description">{template.description}</span>
                  <CopyButton
                    text={template.condition}
                    label="Copy"
                    aria-label={`Copy condition ${template.condition}`}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  );
}
