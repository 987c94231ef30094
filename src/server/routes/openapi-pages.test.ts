import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newSite, newSpace, publishSite, seedContent } from '../test/factories.js';
import { PETSTORE_V1, PETSTORE_V2, processedSpec } from '../test/openapi-fixtures.js';

const BLOCK = '{% openapi-operation spec="petstore" path="/pets" method="get" %}';
const BLOCK_WITH_END = `{% openapi-operation spec="petstore" path="/pets" method="post" %}
[OpenAPI petstore](https://example.com/openapi.yaml)
{% endopenapi-operation %}`;

/** Pages that reference operations of hosted specs: kept through editing, rendered on published sites. */
describeEachDialect('OpenAPI operation blocks in pages', (dialect) => {
  let server: TestServer;
  let spaceId: string;
  let pageId: string;
  let published: string;
  const org = () => `/v1/orgs/${server.orgId}`;

  const processed = (slug: string) => processedSpec(server, server.orgId, slug);

  async function visit(url: string) {
    const res = await fetch(server.url + url.replace(server.config.publicUrl, ''));
    return { status: res.status, html: await res.text() };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    await server.request('POST', `${org()}/openapi`, {
      body: {
        slug: 'petstore',
        source: {
          text: PETSTORE_V1.replace('description: Pets, for sale.', 'description: "<script>alert(1)</script>"'),
        },
      },
    });
    await processed('petstore');
    spaceId = (await newSpace(server, server.orgId, { title: 'API docs' })).id;
    const markdown = `Pets are listed here.\n\n${BLOCK}\n\nAnd created:\n\n${BLOCK_WITH_END}\n\n{% openapi-operation spec="nope" path="/x" method="get" %}\n\n\`\`\`\n${BLOCK}\n\`\`\`\n`;
    const changes = [{ operation: 'insert_page', title: 'Pets', slug: 'pets', document: { markdown } }];
    pageId = (await seedContent(server, spaceId, changes, { subject: 'API' })).pageIds[0]!;
    const site = await newSite(server, server.orgId, { title: 'API', spaces: [spaceId] });
    published = (await publishSite(server, server.orgId, site.id)).urls.published;
  });
  afterAll(() => server.close());

  it('keeps the blocks in the page markdown as written', async () => {
    const page = await server.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
    expect(page.body.markdown).toContain(BLOCK);
    expect(page.body.markdown).toContain(BLOCK_WITH_END);
  });

  it('renders each block as the operation of the latest version, escaped, and says when one is missing', async () => {
    const { status, html } = await visit(`${published}/pets`);
    expect(status).toBe(200);
    expect(html).toContain('<section class="api-operation" aria-label="GET /pets">');
    expect(html).toContain('<span class="api-method api-get">GET</span>');
    expect(html).toContain('<code class="api-name">limit</code>');
    expect(html).toContain('<section class="api-operation" aria-label="POST /pets">');
    expect(html).toContain('Example request');
    expect(html).toContain('https://pets.example.com/v1/pets');
    // The link GitBook writes inside a block is not shown; the block in a code sample stays code.
    expect(html).not.toContain('OpenAPI petstore');
    expect(html).toMatch(/<code>\{% openapi-operation spec="petstore"/);
    expect(html).toContain('The API operation GET /x of the specification “nope” is not available.');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('shows the new version once the spec is updated (the cached page is rendered again)', async () => {
    expect((await visit(`${published}/pets`)).html).not.toContain('<code class="api-name">store</code>');
    await server.request('PUT', `${org()}/openapi/petstore`, { body: { source: { text: PETSTORE_V2 } } });
    await processed('petstore');
    const { html } = await visit(`${published}/pets`);
    expect(html).toContain('<code class="api-name">store</code>');
    // Deleting the spec: the blocks say so.
    await server.request('DELETE', `${org()}/openapi/petstore`);
    expect((await visit(`${published}/pets`)).html).toContain(
      'The API operation GET /pets of the specification “petstore” is not available.',
    );
  });
});
