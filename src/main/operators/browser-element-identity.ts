/**
 * The element under a point of a page, as a replay's last look before a press compares it with the recorded one
 * (docs/flows.md, "Replay"): the topmost element there, which is the one a click would reach (an invisible layer
 * over a button is that layer, not the button), its tag, its role, its accessible name and its box in CSS pixels.
 *
 * The name follows the usual order of the accessible-name computation, simplified: aria-labelledby, aria-label,
 * a field's label or placeholder, alt, a button input's value, the text, title. Field values are never read (a
 * field's value may be a password or a secret the user typed). Cut to 200 characters.
 */
import type { Page } from 'playwright-core';
import type { Point } from './coordinates.js';
import type { ElementIdentity } from './operator.js';
import { ElementIdentitySchema } from './element-identity.js';

/** Runs in the page: plain JavaScript, no closures over Node values. */
const IDENTIFY = `(([x, y]) => {
  const element = document.elementFromPoint(x, y);
  if (!element) return null;
  const squeeze = (text) => (text || '').replace(/\\s+/g, ' ').trim().slice(0, 200);
  const tag = element.tagName.toLowerCase();
  const implicit = { a: element.hasAttribute('href') ? 'link' : '', button: 'button', select: 'combobox', textarea: 'textbox', img: 'img', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', li: 'listitem', option: 'option' };
  const inputRoles = { button: 'button', submit: 'button', reset: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider', search: 'searchbox' };
  const type = (element.getAttribute('type') || 'text').toLowerCase();
  const role = element.getAttribute('role') || (tag === 'input' ? inputRoles[type] || 'textbox' : implicit[tag] || '');
  const byIds = (element.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent || '').join(' ');
  const labels = 'labels' in element && element.labels ? Array.from(element.labels).map((label) => label.textContent || '').join(' ') : '';
  const field = tag === 'input' || tag === 'textarea' || tag === 'select';
  const buttonValue = tag === 'input' && (type === 'button' || type === 'submit' || type === 'reset') ? element.getAttribute('value') || '' : '';
  const name = squeeze(byIds) || squeeze(element.getAttribute('aria-label')) || squeeze(labels) || squeeze(element.getAttribute('placeholder')) ||
    squeeze(element.getAttribute('alt')) || squeeze(buttonValue) || (field ? '' : squeeze(element.innerText ?? element.textContent)) || squeeze(element.getAttribute('title'));
  const box = element.getBoundingClientRect();
  return { tag, role, name, box: { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) } };
})`;

/** The element a click at this point of the viewport would reach; undefined when none is there or the page cannot say. */
export async function elementAtPoint(page: Page, point: Point): Promise<ElementIdentity | undefined> {
  const read: unknown = await page.evaluate(`${IDENTIFY}([${Number(point.x)}, ${Number(point.y)}])`).catch(() => undefined);
  const parsed = ElementIdentitySchema.safeParse(read);
  return parsed.success ? parsed.data : undefined;
}
