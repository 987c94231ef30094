import { expect, newOrganization, newSpace, openOrganization, test, tree } from './support';

test('space settings are saved, kept on reload, and server errors show beside their field', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Settings journey');
  await newSpace(page, organizationId, 'Handbook');
  await openOrganization(page, organizationId);
  await tree(page).getByRole('link', { name: 'Handbook' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+\/spaces\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Handbook' })).toBeVisible();
  await expect(page.getByText('This space has no pages yet')).toBeVisible();

  // Settings are a section of the space, with their own URL.
  await page.getByRole('navigation', { name: 'Space sections' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+\/spaces\/[^/]+\/settings$/);
  const settings = page.getByRole('form', { name: 'Space settings' });
  const save = settings.getByRole('button', { name: 'Save settings' });
  await expect(save).toBeDisabled();

  await settings.getByLabel('Title', { exact: true }).fill('Team handbook');
  await settings.getByRole('button', { name: 'Use 📘' }).click();
  await settings.getByLabel('Visibility').selectOption('public');
  await settings.getByLabel('Edit mode').selectOption('locked');
  await save.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Team handbook' })).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(settings.getByLabel('Title', { exact: true })).toHaveValue('Team handbook');
  await expect(settings.getByRole('textbox', { name: 'Emoji' })).toHaveValue('📘');
  await expect(settings.getByLabel('Visibility')).toHaveValue('public');
  await expect(settings.getByLabel('Edit mode')).toHaveValue('locked');

  // A refusal that names a field is shown beside that field; one that names none, above the form.
  await page.route('**/v1/spaces/*', async (route) => {
    if (route.request().method() !== 'PATCH') return route.fallback();
    const body = route.request().postDataJSON() as { title?: string };
    if (body.title === 'Taken title') {
      return route.fulfill({
        status: 400,
        json: {
          error: { code: 400, message: 'Invalid title', issues: [{ path: 'title', message: 'That title is taken' }] },
        },
      });
    }
    return route.fulfill({
      status: 403,
      json: { error: { code: 403, message: 'Your role cannot change this space' } },
    });
  });
  const title = settings.getByLabel('Title', { exact: true });
  await title.fill('Taken title');
  await save.click();
  await expect(title).toHaveAccessibleDescription(/That title is taken/);
  await expect(title).toHaveAttribute('aria-invalid', 'true');

  await title.fill('Another title');
  await save.click();
  await expect(settings.getByRole('alert')).toContainText('Your role cannot change this space');
});
