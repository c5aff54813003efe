import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, type Credentials } from '../http/api-client';
import type { E2eEnv } from './environment';

/**
 * Steps a user takes in the app, written once for both transports. Every wait is on something
 * the user would see (a hook of the brief, a role, a text), never on time.
 */
export const PARIS = 'sys.hcs.Telco.Acme.Paris';
export const ACME = 'sys.hcs.Telco.Acme';

/** The sign-in form (server and browser mode). */
export async function signInWithForm(page: Page, user: Credentials): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.locator('input[name="username"]').fill(user.username);
  await form.locator('input[name="password"]').fill(user.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** The top bar names the signed-in user once the app frame is up. */
export function signedInUser(page: Page): Locator {
  return page.getByTestId('signed-in-user');
}

/** A page on the app frame, signed in as `user`: with the form over HTTP, by the shell over IPC. */
export async function openSignedIn(env: E2eEnv, context: BrowserContext, user: Credentials = ADMIN): Promise<Page> {
  const page = await env.open(context, user);
  if (env.transport === 'http') await signInWithForm(page, user);
  await signedInUser(page).getByText(user.username, { exact: false }).waitFor();
  await tree(page).waitFor();
  return page;
}

export function tree(page: Page): Locator {
  return page.getByRole('tree', { name: 'Hierarchy' });
}

export function treeRow(page: Page, path: string): Locator {
  return tree(page).locator(`[role="treeitem"][data-path="${path}"]`);
}

/** Moves the tree's active row down one step and waits until it moved. */
async function stepDown(page: Page): Promise<void> {
  const before = (await tree(page).getAttribute('aria-activedescendant')) ?? '';
  await page.keyboard.press('ArrowDown');
  await page.locator(`[role="tree"]:not([aria-activedescendant="${before}"])`).waitFor();
}

/**
 * Walks the tree to a node with the keyboard only: ArrowRight opens the active node, ArrowDown
 * moves to the next visible row, Enter selects. The tree keeps focus throughout.
 */
export async function walkTreeTo(page: Page, path: string): Promise<void> {
  const names = path.split('.');
  await tree(page).focus();
  for (let depth = 1; depth < names.length; depth += 1) {
    const parent = treeRow(page, names.slice(0, depth).join('.'));
    const target = names.slice(0, depth + 1).join('.');
    if ((await parent.getAttribute('aria-expanded')) !== 'true') {
      await page.keyboard.press('ArrowRight');
      await parent.and(page.locator('[aria-expanded="true"]')).waitFor();
    }
    await treeRow(page, target).waitFor();
    const targetId = await treeRow(page, target).getAttribute('id');
    for (let guard = 0; (await tree(page).getAttribute('aria-activedescendant')) !== targetId; guard += 1) {
      if (guard > 50) throw new Error(`the keyboard never reached ${target} in the tree`);
      await stepDown(page);
    }
  }
  await page.keyboard.press('Enter');
  await treeRow(page, path).and(page.locator('[aria-selected="true"]')).waitFor();
}

/** The breadcrumb's current node (the last part, marked aria-current). */
export function breadcrumbCurrent(page: Page): Locator {
  return page.getByRole('list', { name: 'Current node' }).locator('[aria-current="location"]');
}

/** Adds a remote profile in Settings as an admin types it; answers the add form. */
export async function addRemote(page: Page, name: string, url: string, password: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Add a remote deployment' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Base URL').fill(url);
  await form.getByLabel('User name', { exact: true }).fill('admin');
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Add' }).click();
  return form;
}
