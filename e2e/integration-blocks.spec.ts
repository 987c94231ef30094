import {
  callApi,
  changeRequestPage,
  expect,
  expectAccessible,
  newOrganization,
  newSpace,
  seedPage,
  test,
} from './support';

/**
 * An integration's block in a page (`{% @name/block … %}`): the script renders it (in the server's sandbox), the
 * console shows it in the page and sends what the reader does back to the script, and the published site shows the
 * same block to its readers.
 */
test('an integration block renders in a page and the editor, answers its button with what was typed, and works the same on the site', async ({
  page,
}) => {
  const name = `counter-${Date.now().toString(36)}`;
  const organizationId = await newOrganization(page, 'Blocks');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  await callApi(page, 'POST', `/integrations/${name}`, {
    title: 'Counter',
    description: 'Counts presses',
    target: 'all',
    visibility: 'unlisted',
    organization: organizationId,
    // It reads readers' feedback on the sites it is installed on.
    scopes: ['page:feedback:read'],
    configurations: { account: { componentId: 'settings' }, space: { componentId: 'settings' } },
    blocks: [
      { id: 'counter', title: 'Counter' },
      // Written in markdown as a fence of its own language, as GitBook writes Mermaid's.
      { id: 'diagram', title: 'Diagram', markdown: { codeblock: 'diagram-src', body: 'content' } },
      { id: 'file', title: 'File', urlUnfurl: ['https://files.example.com/**'] },
    ],
    script: `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type === 'page_feedback') {
          console.log('feedback: ' + event.feedback.rating);
          return new Response('OK');
        }
        if (event.type !== 'ui_render') return new Response('', { status: 406 });
        if (event.componentId === 'settings') {
          // Its settings screen: it saves what is chosen itself, with its installation's token, then is done.
          const environment = JSON.parse(form.get('environment'));
          // On a space (its own settings there), or the organization's.
          const onSpace = event.context.type === 'configuration_space' ? '/spaces/' + event.context.spaceId : '';
          if (event.action?.action === 'save') {
            // Refused as @gitbook/runtime refuses (an ExposableError): the screen stays, saying why.
            if (!event.state.greeting) return Response.json({ error: 'A greeting is needed' }, { status: 400 });
            const installation = environment.installation;
            const res = await fetch(environment.apiEndpoint + '/v1/integrations/' + environment.integration.name + '/installations/' + installation.id + onSpace, {
              method: 'PATCH',
              headers: { authorization: 'Bearer ' + environment.apiTokens.installation, 'content-type': 'application/json' },
              body: JSON.stringify({ configuration: { greeting: event.state.greeting } }),
            });
            if (!res.ok) return new Response('not saved: ' + res.status, { status: 500 });
            return Response.json({ type: 'complete' });
          }
          // What is saved comes in its props, as GitBook gives it.
          const settings = onSpace ? event.props.spaceInstallation?.configuration : event.props.installation?.configuration;
          const saved = settings?.greeting ?? 'nothing yet';
          return Response.json({
            element: { type: 'configuration', children: [
              { type: 'text', children: ['Saved greeting: ' + saved] },
              { type: 'input', label: 'Greeting', element: { type: 'textinput', state: 'greeting', placeholder: 'Hello' } },
              { type: 'input', label: '', element: { type: 'button', label: 'Save settings', style: 'primary', onPress: { action: 'save' } } },
            ] },
            state: { greeting: '' },
            props: event.props,
          });
        }
        if (event.componentId === 'file') {
          // As GitHub files: made from a pasted link, which it keeps as its props.
          const props = event.action?.action === '@link.unfurl' ? { url: event.action.url } : event.props;
          const text = { type: 'text', children: ['File at ' + props.url] };
          return Response.json({ element: { type: 'block', children: [text] }, state: {}, props });
        }
        if (event.componentId === 'diagram') {
          // As GitBook's Mermaid block: its source edited in place in the editor, kept as the block's props.
          const update = event.action?.action === '@editor.node.updateProps' ? event.action.props : {};
          const props = { ...event.props, ...update };
          const content = event.state?.content ?? props.content ?? 'graph TD';
          const code = event.context.editable
            ? { type: 'codeblock', state: 'content', content: { $state: 'content' }, syntax: 'mermaid',
                onContentChange: { action: '@editor.node.updateProps', props: { content: { $state: 'content' } } } }
            : { type: 'codeblock', content, syntax: 'mermaid' };
          return Response.json({ element: { type: 'block', children: [code] }, state: { content }, props });
        }
        if (event.componentId === 'details') {
          // A modal its block opens; closing it sends the block what was chosen.
          return Response.json({
            element: { type: 'modal', title: 'Details', children: [
              { type: 'text', children: ['Clicks so far: ' + event.props.clicks] },
              { type: 'button', label: 'Reset', onPress: { action: '@ui.modal.close', returnValue: { reset: true } } },
            ] },
            state: {},
            props: event.props,
          });
        }
        const state = event.state ?? { clicks: 0, note: '' };
        if (event.action?.action === 'add') state.clicks += 1;
        if (event.action?.action === '@ui.modal.close' && event.action.returnValue?.reset) state.clicks = 0;
        return Response.json({
          element: { type: 'block', children: [
            { type: 'card', title: event.props.label + ': ' + state.clicks + ' clicks', hint: 'Counted by the script',
              buttons: [
                { type: 'button', label: 'Add one', style: 'primary', onPress: { action: 'add' } },
                { type: 'button', label: 'Details', onPress: { action: '@ui.modal.open', componentId: 'details', props: { clicks: state.clicks } } },
              ],
              children: [
                { type: 'input', label: 'Note', element: { type: 'textinput', state: 'note', placeholder: 'Write a note' } },
                { type: 'markdown', content: 'Last note: **' + (state.note || 'none') + '**' },
              ] },
          ] },
          state,
          props: event.props,
        });
      },
    };`,
  });
  const installation = await callApi(page, 'POST', `/integrations/${name}/installations`, {
    organization: organizationId,
  });
  await callApi(page, 'POST', `/integrations/${name}/installations/${installation.id}/spaces`, { space: spaceId });
  const pageId = await seedPage(
    page,
    spaceId,
    'Counting',
    `Before the block.\n\n{% @${name}/counter label="Visits" %}\n\nAfter it.\n\n\`\`\`diagram-src\ngraph FENCED\n\`\`\`\n\n{% embed url="https://files.example.com/docs/guide.md" %}\n`,
  );

  await page.goto(`/o/${organizationId}/spaces/${spaceId}`);
  const block = page.locator(`[data-integration="${name}"]`);
  await expect(block.getByText('Visits: 0 clicks')).toBeVisible();
  await expect(block.getByText('Last note: none')).toBeVisible();
  // The fence of the diagram's language is the diagram block.
  await expect(page.locator(`.gb-integration[data-integration="${name}"]`).getByText('graph FENCED')).toBeVisible();
  // …and an embed of a link one of its blocks unfurls is that block.
  await expect(page.getByText('File at https://files.example.com/docs/guide.md')).toBeVisible();
  await block.getByLabel('Note').fill('hello');
  await block.getByRole('button', { name: 'Add one' }).click();
  await expect(block.getByText('Visits: 1 clicks')).toBeVisible();
  await expect(block.getByText('Last note: hello')).toBeVisible();
  // A button may open a component of the integration in a modal; what is chosen there goes back to the block.
  await block.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Details' });
  await expect(details.getByText('Clicks so far: 1')).toBeVisible();
  await details.getByRole('button', { name: 'Reset' }).click();
  await expect(details).toBeHidden();
  await expect(block.getByText('Visits: 0 clicks')).toBeVisible();
  await block.getByRole('button', { name: 'Add one' }).click();
  await expect(block.getByText('Visits: 1 clicks')).toBeVisible();
  await expect(page.getByText('After it.')).toBeVisible();
  await expectAccessible(page);

  // In the editor, the `/` menu offers the space's integrations' blocks; a block's own controls change its props.
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Diagram' });
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${changeRequest.number}/pages/${pageId}`);
  await page.getByRole('group', { name: 'Editor' }).getByRole('button', { name: 'Visual' }).click();
  const body = page.getByRole('textbox', { name: 'Content' });
  /** The page as the change request has it (saved a second after typing stops). */
  const written = async () => (await changeRequestPage(page, spaceId, changeRequest.id, pageId)).markdown as string;
  await expect(body.locator(`[data-integration="${name}"]`).getByText('Visits: 0 clicks')).toBeVisible();
  await body.getByText('After it.').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/diagram');
  const menu = page.getByRole('listbox', { name: 'Insert a block' });
  await expect(menu.getByRole('option', { selected: true })).toHaveText('Diagram (Counter)');
  await page.keyboard.press('Enter');
  const source = body.getByRole('textbox', { name: 'mermaid source' });
  await expect(source).toHaveValue('graph TD');
  await source.fill('graph LR\n  A --> B');
  await body.getByText('After it.').click();
  await expect.poll(written).toContain(`{% @${name}/diagram content="graph LR\\n  A --> B" %}`);
  // A link pasted alone that a block unfurls becomes that block, its props read off the link by the script.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await body.evaluate((editor) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'https://files.example.com/src/index.ts');
    editor.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(body.getByText('File at https://files.example.com/src/index.ts')).toBeVisible();
  await expect.poll(written).toContain(`{% @${name}/file url="https://files.example.com/src/index.ts" %}`);

  // Its settings are its own screen (ContentKit), rendered in the integration's page; it saves them itself.
  await page.goto(`/o/${organizationId}/integrations/${name}`);
  const settings = page.locator(`[data-integration="${name}"]`);
  await expect(settings.getByText('Saved greeting: nothing yet')).toBeVisible();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('alert')).toContainText('A greeting is needed');
  await settings.getByLabel('Greeting').fill('Hi there');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Configuration saved')).toBeVisible();
  await expect(settings.getByText('Saved greeting: Hi there')).toBeVisible();
  await expectAccessible(page);
  // …and its settings on each space, in a dialog.
  await page.getByRole('button', { name: 'Settings for Handbook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Counter on Handbook' });
  await expect(dialog.getByText('Saved greeting: nothing yet')).toBeVisible();
  await dialog.getByLabel('Greeting').fill('Hello, Handbook');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Settings for Handbook' }).click();
  await expect(dialog.getByText('Saved greeting: Hello, Handbook')).toBeVisible();
  await page.keyboard.press('Escape');

  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, { title: 'Blocks', spaces: [spaceId] });
  await callApi(page, 'POST', `/integrations/${name}/installations/${installation.id}/sites`, { siteId: site.id });
  const published = await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  await page.goto(`${published.urls.published}/counting`);
  const onSite = page.locator(`.gb-integration[data-integration="${name}"]`);
  await expect(onSite.getByText('File at https://files.example.com/docs/guide.md')).toBeVisible();
  await expect(onSite.getByText('Visits: 0 clicks')).toBeVisible();
  // Its readers' actions go to the script too (the site's script posts them), with what they typed.
  await onSite.getByLabel('Note').fill('from a reader');
  await onSite.getByRole('button', { name: 'Add one' }).click();
  await expect(onSite.getByText('Visits: 1 clicks')).toBeVisible();
  await expect(onSite.getByText('Last note: from a reader')).toBeVisible();
  await onSite.getByRole('button', { name: 'Details' }).click();
  const siteDetails = page.getByRole('dialog');
  await expect(siteDetails.getByText('Clicks so far: 1')).toBeVisible();
  await expectAccessible(page);
  await siteDetails.getByRole('button', { name: 'Reset' }).click();
  await expect(siteDetails).toBeHidden();
  await expect(onSite.getByText('Visits: 0 clicks')).toBeVisible();
  await expectAccessible(page);
  // It reads feedback: the page asks whether it helped, and thanks the reader.
  const feedback = page.getByRole('form', { name: 'Was this page helpful?' });
  await feedback.getByLabel('Comment (optional)').fill('Clear enough');
  await feedback.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your feedback.' })).toBeVisible();
});
