import { describe, expect, it } from 'vitest';
import { extractOperationBlocks, operationBlocks } from '../../../shared/openapi-blocks.js';
import { preparePage } from '../imports/markdown.js';
import { blocksToMarkdown, splitBlocks } from '../content/blocks.js';

const OPEN = '{% openapi-operation spec="petstore" path="/pets/{petId}" method="GET" %}';

describe('OpenAPI operation blocks', () => {
  it('finds opening tags alone and with their closing tag, not inside code, not without spec, path or method', () => {
    const markdown = [
      'Intro',
      OPEN,
      '',
      '{% openapi-operation spec="petstore" path="/pets" method="post" %}',
      '[OpenAPI petstore](https://example.com/openapi.yaml)',
      '{% endopenapi-operation %}',
      'After',
      '```',
      OPEN,
      '```',
      '{% openapi-operation spec="petstore" path="/pets" %}',
    ].join('\n');
    const { markdown: out, blocks } = extractOperationBlocks(markdown, (i) => `BLOCK${i}`);
    expect(blocks).toEqual([
      { spec: 'petstore', path: '/pets/{petId}', method: 'get', key: 'petstore get /pets/{petId}' },
      { spec: 'petstore', path: '/pets', method: 'post', key: 'petstore post /pets' },
    ]);
    expect(out).not.toContain('OpenAPI petstore');
    expect(out).toContain('After');
    expect(out.split('\n').filter((l) => l === OPEN)).toHaveLength(1); // the one in the code block
    expect(out).toContain('{% openapi-operation spec="petstore" path="/pets" %}');
  });

  it('are kept as written through editing (block split and join) and import', () => {
    const markdown = `# Pets\n\nText with a_b_c.\n\n${OPEN}\n\n{% openapi-operation spec="pet_store" path="/a_b/{id}_x" method="get" %}\n[OpenAPI](https://example.com/x_y.yaml)\n{% endopenapi-operation %}\n`;
    const edited = blocksToMarkdown(splitBlocks(markdown));
    expect(operationBlocks(edited)).toEqual(operationBlocks(markdown));
    expect(edited).toContain(OPEN);
    const imported = preparePage({ markdown, base: 'pets.md' }, { pages: [], targets: {}, mode: 'archive' });
    expect(operationBlocks(imported.markdown)).toEqual(operationBlocks(markdown));
    expect(operationBlocks(markdown)).toHaveLength(2);
  });
});
