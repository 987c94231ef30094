import type { OperationView, SchemaView } from '../../../shared/contract';
import { CopyButton } from '../ui/copy-button';
import './openapi.css';

/**
 * One API operation as a reference section: method and path, parameters, request body and responses with their
 * schemas (nested objects fold), and an example request. The same layout as published pages (see the server's
 * sites/api-operation.ts), for the console's page previews and spec references. Text only: nothing is HTML.
 */

function typeOf(schema: SchemaView | undefined): string {
  if (!schema) return '';
  if (schema.type === 'array') return `${typeOf(schema.items) || 'any'}[]`;
  const base = schema.ref ?? schema.type ?? schema.variants?.kind ?? '';
  return schema.nullable ? `${base} | null` : base;
}

function Meta({ schema, required }: { schema?: SchemaView; required?: boolean }) {
  const type = typeOf(schema);
  return (
    <>
      {type && <span className="api-type">{type}</span>}
      {schema?.format && <span className="api-type">{schema.format}</span>}
      {(required ?? schema?.required) && <span className="api-required">required</span>}
      {schema?.deprecated && <span className="api-deprecated">deprecated</span>}
    </>
  );
}

function Details({ schema }: { schema: SchemaView }) {
  return (
    <>
      {schema.description && <p className="api-description">{schema.description}</p>}
      {schema.enum && schema.enum.length > 0 && (
        <p className="api-description">
          One of:{' '}
          {schema.enum.map((value, i) => (
            <span key={value}>
              {i > 0 && ', '}
              <code>{value}</code>
            </span>
          ))}
        </p>
      )}
      {schema.default !== undefined && (
        <p className="api-description">
          Default: <code>{schema.default}</code>
        </p>
      )}
      {schema.example !== undefined && (
        <p className="api-description">
          Example: <code>{schema.example}</code>
        </p>
      )}
    </>
  );
}

export function SchemaTree({ schema, depth = 0 }: { schema?: SchemaView; depth?: number }) {
  const target = schema?.type === 'array' && schema.items?.properties ? schema.items : schema;
  if (target?.variants && !target.properties) {
    return (
      <ul className="api-schema">
        {target.variants.options.map((option, i) => (
          <li key={i}>
            <p>
              {target.variants!.kind === 'oneOf' ? 'One of' : 'Any of'} {i + 1}:{' '}
              <Meta schema={option} required={false} />
            </p>
            <SchemaTree schema={option} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  if (!target?.properties?.length) return null;
  return (
    <ul className="api-schema">
      {target.properties.map(({ name, schema: child }) => {
        const nested = depth < 6 && (child.properties?.length || child.items?.properties?.length || child.variants);
        const head = (
          <>
            <code className="api-name">{name}</code>
            <Meta schema={child} />
          </>
        );
        return (
          <li key={name}>
            {nested ? (
              <details>
                <summary>{head}</summary>
                <Details schema={child} />
                <SchemaTree schema={child} depth={depth + 1} />
              </details>
            ) : (
              <>
                <p>{head}</p>
                <Details schema={child} />
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const PARAMETER_PLACES = ['path', 'query', 'header', 'cookie'] as const;

export function ApiOperation({ operation, headingLevel = 3 }: { operation: OperationView; headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  return (
    <section className="api-operation" aria-label={label}>
      <Heading className="api-head">
        <span className={`api-method api-${operation.method}`}>{operation.method.toUpperCase()}</span>{' '}
        <code className="api-path">{operation.path}</code>
        {operation.deprecated && <span className="api-deprecated">deprecated</span>}
      </Heading>
      {operation.summary && <p className="api-summary">{operation.summary}</p>}
      {operation.description && <p className="api-description">{operation.description}</p>}
      {(operation.servers.length > 0 || operation.security.length > 0) && (
        <p className="api-meta">
          {operation.servers[0] && (
            <>
              Server: <code>{operation.servers[0]}</code>
            </>
          )}
          {operation.servers[0] && operation.security.length > 0 && ' · '}
          {operation.security.length > 0 && `Authorization: ${operation.security.join(', ')}`}
        </p>
      )}
      {PARAMETER_PLACES.map((place) => {
        const params = operation.parameters.filter((p) => p.in === place);
        if (!params.length) return null;
        return (
          <div className="api-part" key={place}>
            <p className="api-part-title">{place} parameters</p>
            <ul className="api-schema">
              {params.map((p) => (
                <li key={p.name}>
                  <p>
                    <code className="api-name">{p.name}</code>
                    <Meta schema={p.schema} required={p.required} />
                    {p.deprecated && <span className="api-deprecated">deprecated</span>}
                  </p>
                  {p.description && <p className="api-description">{p.description}</p>}
                  {p.schema && <Details schema={{ ...p.schema, description: undefined }} />}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {operation.requestBody && (
        <div className="api-part">
          <p className="api-part-title">Body</p>
          <p>
            <span className="api-type">{operation.requestBody.contentType}</span>
            <Meta schema={operation.requestBody.schema} required={operation.requestBody.required} />
          </p>
          {operation.requestBody.description && <p className="api-description">{operation.requestBody.description}</p>}
          <SchemaTree schema={operation.requestBody.schema} />
        </div>
      )}
      {operation.responses.length > 0 && (
        <div className="api-part">
          <p className="api-part-title">Responses</p>
          {operation.responses.map((response, i) => {
            const head = (
              <>
                <span className={`api-status api-status-${response.status[0] ?? 'x'}`}>{response.status}</span>{' '}
                {response.description}
                {response.contentType && <span className="api-type">{response.contentType}</span>}
                <Meta schema={response.schema} required={false} />
              </>
            );
            const tree = response.schema?.properties?.length || response.schema?.items?.properties?.length;
            return tree ? (
              <details className="api-response" key={response.status} open={i === 0}>
                <summary>{head}</summary>
                <SchemaTree schema={response.schema} />
              </details>
            ) : (
              <p className="api-response" key={response.status}>
                {head}
              </p>
            );
          })}
        </div>
      )}
      <div className="api-part">
        <div className="api-example-head">
          <p className="api-part-title">Example request</p>
          <CopyButton text={operation.example} aria-label="Copy the example request" />
        </div>
        <pre className="api-example" tabIndex={0}>
          <code>{operation.example}</code>
        </pre>
      </div>
    </section>
  );
}
