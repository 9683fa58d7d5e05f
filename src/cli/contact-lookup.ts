/**
 * Which contact `shop-inbox send CONTACT` texts: CONTACT is a contact id, a
 * phone number, or a whole name, and must name exactly one contact; two with
 * that name or number are refused, naming each, so a script never texts the
 * wrong person. The API reads a contact only through its lists: an id is found
 * among the 100 most recently in touch, a number or a name through the shop's
 * search.
 */
import type { ShopClient } from '../api/client.js';
import type { Contact } from '../contract/resources.js';
import { recipientLabel } from '../text/recipient.js';
import { sanitize } from '../text/sanitize.js';
import { EXIT } from './exit-codes.js';
import { CommandFailure } from './verb-runner.js';

/** A phone number as people write it: digits with +, spaces, dots, dashes and brackets, at least 7 digits. */
export function looksLikePhone(text: string): boolean {
  return /^\+?[\d\s().-]+$/.test(text) && text.replace(/\D/g, '').length >= 7;
}

/**
 * The same number, whatever its formatting: the same digits, or a full national number (10 digits or
 * more) that the other has with a country code of at most 3 digits in front.
 */
export function samePhone(a: string, b: string): boolean {
  const [x, y] = [a.replace(/\D/g, ''), b.replace(/\D/g, '')].sort((p, q) => p.length - q.length) as [
    string,
    string,
  ];
  if (x.length === 0) return false;
  if (x === y) return true;
  return x.length >= 10 && y.endsWith(x) && y.length - x.length <= 3;
}

/** A name as people compare them: case, accents and spaces aside. */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const said = (text: string) => sanitize(text.slice(0, 100), { singleLine: true });

function oneOf(matches: Contact[], what: string): Contact {
  if (matches.length === 1) return matches[0] as Contact;
  if (matches.length === 0) throw new CommandFailure(`no contact has ${what}`, 'not_found', EXIT.error);
  const named = matches.map((contact) => `${recipientLabel(contact)} ${said(contact.id)}`).join('; ');
  throw new CommandFailure(
    `${matches.length} contacts have ${what}: ${named}. Give the contact id of the one to text.`,
    'ambiguous',
    EXIT.usage,
  );
}

export async function findContact(client: ShopClient, given: string): Promise<Contact> {
  const wanted = given.trim();
  if (looksLikePhone(wanted)) {
    const digits = wanted.replace(/\D/g, '');
    // The shop matches digits anywhere in a number: the national part finds it however it is stored.
    const found = await client.getContacts({
      q: digits.length > 10 ? digits.slice(-10) : digits,
      limit: 100,
    });
    return oneOf(
      found.items.filter((contact) => samePhone(contact.phone, wanted)),
      `the number ${said(wanted)}`,
    );
  }
  const recent = await client.getContacts({ limit: 100 });
  const byId = recent.items.filter((contact) => contact.id === wanted);
  if (byId.length > 0) return oneOf(byId, `the id ${said(wanted)}`);
  if (wanted.length > 100)
    throw new CommandFailure(`no contact has the id or the name "${said(wanted)}…"`, 'not_found', EXIT.error);
  const found = await client.getContacts({ q: wanted.replace(/\s+/g, ' '), limit: 100 });
  const byName = found.items.filter((contact) => foldName(contact.name) === foldName(wanted));
  if (byName.length === 0)
    throw new CommandFailure(
      `no contact has the id or the whole name "${said(wanted)}" (ids are looked for among the 100 contacts most recently in touch; a phone number finds any)`,
      'not_found',
      EXIT.error,
    );
  return oneOf(byName, `the name "${said(wanted)}"`);
}
