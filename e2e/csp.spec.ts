import { callApi, expect, newOrganization, newSpace, seedPage, test } from './support';

/**
 * Scripts anyone can have served on this origin (an integration's script at `…/public`, uploaded files) must not
 * run in a published page or in the console, whatever markup got into them: both pages' Content-Security-Policy
 * takes scripts from their own assets path only, not from the whole origin ('self').
 */
test("a script served on the site's origin, an integration's, cannot run in a published page or in the console", async ({
  page,
  browserErrors,
}) => {
  const organizationId = await newOrganization(page, 'Script gadgets');
  const spaceId = await newSpace(page, organizationId, 'Docs');
  await seedPage(page, spaceId, 'Welcome', 'Hello, readers.');
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Gadget site',
    spaces: [spaceId],
  });
  const published = await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  const name = `gadget-${Date.now()}`;
  await callApi(page, 'POST', `/integrations/${name}`, {
    title: 'Gadget',
    description: 'Serves a script on this origin',
    scopes: [],
    script: 'window.gadgetRan = true;',
    organization: organizationId,
    visibility: 'public',
  });
  const gadget = `/v1/integrations/${name}/public`;
  // The script is there for anyone, as JavaScript.
  const served = await page.request.get(gadget);
  expect(served.headers()['content-type']).toMatch(/javascript/);

  /** Adds a script element for the gadget, as injected markup would, and says what the browser did with it. */
  const tryGadget = () =>
    page.evaluate(async (src) => {
      const script = document.createElement('script');
      const outcome = new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(`refused by ${e.effectiveDirective}`), {
          once: true,
        });
        script.onload = () => resolve('loaded');
      });
      script.src = src;
      document.head.append(script);
      return { outcome: await outcome, ran: (window as { gadgetRan?: boolean }).gadgetRan === true };
    }, gadget);

  await page.goto(published.urls.published);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
  expect(await tryGadget()).toEqual({ outcome: 'refused by script-src-elem', ran: false });

  await page.goto(`/o/${organizationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  expect(await tryGadget()).toEqual({ outcome: 'refused by script-src-elem', ran: false });

  // The two refusals are all the browser reported.
  expect(browserErrors).toHaveLength(2);
  expect(browserErrors.every((e) => /Content Security Policy/.test(e))).toBe(true);
  browserErrors.splice(0);
});
