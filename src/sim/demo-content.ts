/**
 * What the demo shops are made of: names, trades, message and review
 * templates, and the small record-making helpers that the seed (the shops at
 * start) and live mode (what keeps arriving) share.
 */
import type { Random } from './random.js';
import { newId, type SimContact, type SimLead, type SimReview, type SimShop, type World } from './world.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Data tables
// ---------------------------------------------------------------------------

export const JOB_TYPES = [
  'water heater',
  'drain clog',
  'AC not cooling',
  'furnace tune-up',
  'leaking pipe',
  'sump pump',
  'toilet repair',
  'gas line',
  'boiler',
  'garbage disposal',
  'no heat',
  'sewer backup',
  'frozen pipe',
  'thermostat install',
  'faucet replacement',
  'heat pump',
] as const;

export const MAIN_CONTACT_NAMES = [
  'Dana Ortiz',
  'José Núñez',
  'Zoë Ng',
  'Marcus Bell',
  'Priya Raman',
  'Tom Kowalski',
  'Aisha Bello',
  'Grace Lindqvist',
  "Kevin O'Malley",
  'Hannah Schmidt',
  'Luis Ferreira',
  'Mei-Ling Chen',
  'Brian Fitzgerald',
  'Fatima Haddad',
  'Derek Johnson',
  'Sofía Delgado',
  'Ray Whitaker',
  'Nguyễn Thị Lan',
  'Chloé Martin',
  'Sam Patel',
  'Beth Ann Carver',
  'Omar Farouk',
  'Jenny Walsh',
  'Björn Åkesson',
  'Tasha Greene',
  'Patrick Doyle',
  'Linda Morales',
  'Ethan Brooks',
  'Keiko Tanaka',
  'Walt Hendricks',
  'Renée Dubois',
  'Carlos Mendez',
  'Amy Nakamura',
  'Gus Petrakis',
] as const;

export const SMALL_SHOP_CONTACT_NAMES = [
  'Ruth Abernathy',
  'Diego Salazar',
  'Ingrid Olsen',
  'Malik Thompson',
  'Yuki Sato',
  'Colleen Murphy',
  'Andrés Vega',
  'Paula Jensen',
  'Victor Huang',
  'Nora Fitzpatrick',
  'Héctor Ruiz',
  'Bree Castillo',
] as const;

export const REVIEWER_NAMES = [
  'Karen W.',
  'Mike D.',
  'Ana Lucía Paredes',
  'Trevor Banks',
  'Frédéric L.',
  'Jasmine Cole',
  'Rob Sinclair',
  'Lena Hoffmann',
  'Dwayne P.',
  'Megan O.',
  'Sunil Kapoor',
  'Tracy Nguyen',
  'Bill Harrington',
  'Rosa Jiménez',
  'Kyle M.',
  'Eleanor Price',
  'Hamid Rahimi',
  'Courtney Lake',
  'Jorge A.',
  'Wendy Chu',
  'Phil Ostrowski',
  'Maya Greenberg',
  'Stan Woods',
  'Chiara Rossi',
  'Terrence Hall',
  'Olga Petrova',
] as const;

/** Untrusted-text test data: a caller ID with a bare carriage return and a bell. */
export const HOSTILE_CONTACT_NAME = 'PRIZE DEPT\r\u0007Claim Now';

/** Untrusted-text test data: spam with terminal escapes and a bidi override. */
export const HOSTILE_MESSAGE =
  '\u001b[2J\u001b[31mURGENT\u001b[0m Your home warranty expires TODAY. Reply YES to renew or open hxxp://warranty-renew.example/\u202etxt.exe\u202c now. Msg&data rates may apply.';

export const LONG_MESSAGES = [
  {
    jobType: 'water heater',
    body: "Hi, this is about the water heater in our basement. It's a 50 gallon gas unit, maybe 12 years old. This morning there was about an inch of water on the floor around it and the pilot light keeps going out. I turned the gas valve to off like the YouTube video said and shut the cold water inlet, but I'm not sure I did it right. We have a newborn at home so hot water is kind of urgent. I work until 4 but my husband is home all day. Can someone come today or first thing tomorrow? Also, do you haul away the old tank?",
  },
  {
    jobType: 'AC not cooling',
    body: "Hello — our AC stopped cooling sometime overnight. The thermostat says 78° and keeps climbing even though it's set to 70. The unit outside is running but it sounds louder than usual, kind of a buzzing/clicking, and the big copper line going into the house is frosted over. I already changed the filter last month. It's a Carrier, I think from 2011. My mom lives with us and the heat is hard on her, so sooner is better. Any chance you have an opening this afternoon? Happy to pay the after-hours rate if needed.",
  },
] as const;

// Message templates. Placeholders: {first} {owner} {shop} {job} {day} {window} {street} {price}.
export const MISSED_CALL_OPENERS = [
  'Hi, I just called about {job}. Can someone call me back?',
  'Hey, tried calling — need help with {job}. Are you open today?',
  'Sorry I missed you! Calling about {job}. This is the best number to reach me.',
  'Hi there, called a minute ago re: {job}. Please text back when you can 🙏',
] as const;
export const SMS_OPENERS = [
  'Hi, do you guys handle {job}? Looking for someone this week.',
  'Hello! Got your number from a neighbor. Need help with {job}.',
  '¿Hablan español? Tengo un problema: {job}. Gracias.',
  'Hey, how soon could someone come out for {job}? 😅',
] as const;
export const WEB_FORM_OPENERS = [
  "Web form: {job}. Please call or text, I'm home after 3pm.",
  'Website request — {job}. Prefer text. Address is {street}.',
] as const;
export const NEW_LEAD_NUDGES = [
  "Still hoping to hear back, it's getting worse.",
  "Any update? Water's still dripping 💧",
  'Just checking you got my message.',
] as const;
export const FIRST_REPLIES = [
  "Hi {first}, this is {owner} at {shop}. Sorry we missed you! Happy to help ({job}). What's the address?",
  "Hi {first}! {owner} from {shop} here. We can send someone out ({job}). What's the address and a good time?",
  "Thanks for reaching out, {first}. Can you tell me a bit more about what's going on? A photo helps if you can send one.",
] as const;
export const ADDRESS_REPLIES = [
  "It's {street}. Can you come {day}?",
  '{street}. Side door is easiest.',
  "We're at {street} — I'll text the gate code the day of.",
] as const;
export const QUESTIONS = [
  'How much does that usually run?',
  'Do you charge a trip fee?',
  'Do you work weekends?',
  'Is it worth repairing or should we just replace it?',
] as const;
export const ANSWERS = [
  "Our diagnostic visit is {price} and it's credited toward the repair if you go ahead.",
  'Depends what we find, but trip + diagnostic is {price}. We always quote before any work.',
  'We do Saturdays for emergencies. Weekday slots are easier to get.',
  "Hard to say without seeing it. If it's over 10–12 years old, replacing often makes more sense. We'll give you both options.",
] as const;
export const SLOT_OFFERS = [
  'We can do {day} between {window}. Does that work?',
  'Our tech has an opening {day}, {window}. Want it?',
] as const;
export const CONFIRMS = [
  'Yes that works, thank you! 👍',
  'Perfect, see you {day}.',
  'Is tomorrow 9am ok instead?',
  '¡Gracias! Nos vemos {day}.',
] as const;
export const BOOKINGS = [
  "You're booked for {day}, {window}. The tech will text when on the way.",
  'All set for {day} ({window}). Reply here if anything changes.',
] as const;
export const THANKS = [
  'All fixed, thanks so much! 🙏',
  "Tech was great, everything's working. Merci!",
  "Everything's working great now ☕ thank you!",
] as const;
export const WRAP_UPS = [
  'Glad we could help, {first}! If you have a minute, a Google review means a lot to a small shop.',
  'Thanks {first}! The invoice is in your email. Have a great week.',
] as const;
export const LOST_REASONS = [
  'Thanks, but we went with someone closer.',
  'Never mind, my brother-in-law fixed it 😅',
  'We decided to hold off for now, thanks.',
] as const;
export const LOST_ACKS = [
  "No problem, {first}. We're here if you need anything.",
  'Understood — thanks for letting us know!',
] as const;
export const FOLLOW_UP_TEXTS = [
  'Hi {first}, just checking in on your service request ({job}). Still want us to come out this week?',
  'Hi {first}, {owner} from {shop}. Following up on your request ({job}). We have openings {day} if that helps.',
] as const;
export const REMINDER_TEXTS = [
  "Hi {first}, quick reminder we're scheduled {day}, {window}. Reply here if anything changes.",
] as const;

export const STREETS = [
  '1420 SE Alder St',
  '88 NW Hoyt St',
  '2315 N Mississippi Ave',
  '907 SW Gibbs St',
  '4410 NE Fremont St',
  '16 Oak Ct',
] as const;
export const DAYS = [
  'tomorrow',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday morning',
] as const;
export const WINDOWS = ['8–10am', '10am–12pm', '12–2pm', '2–4pm'] as const;
export const PRICES = ['$89', '$95', '$79'] as const;
export const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'] as const;
export const TECHS = ['Carlos', 'Mike', 'Jen', 'Andre', 'Tyler'] as const;

// Review texts. Placeholders: {tech}.
export const POSITIVE_REVIEWS = [
  '{tech} showed up right on time, explained everything and had everything sorted in an hour. Fair price. Highly recommend!',
  'Called on a Sunday with an emergency and they still came out. Lifesavers.',
  'Super professional. Put on shoe covers, cleaned up after, and the price matched the quote.',
  "Third time using them. Always honest — they told us we didn't need a new unit when another company said we did.",
  'Great communication by text, easy scheduling, and {tech} was friendly with our dogs 🐶',
  'Fixed our problem the same day. Would give 6 stars if I could.',
  'Very knowledgeable tech. Took the time to show me exactly what was wrong.',
  'Quick response, reasonable rates, no upsell. Exactly what you want from a plumber.',
  'Excelente servicio, muy puntuales y amables. ¡Gracias!',
  'Our furnace died during the cold snap and they had heat back on by dinner. Thank you!',
  'Good work overall. Had to wait a couple days for a part but they kept me updated.',
  'Honest, clean, fast. {tech} is the best.',
] as const;
export const MIXED_REVIEWS = [
  'Work was fine but they were two hours late and nobody texted to say so.',
  'The problem is fixed, but the price was higher than I expected.',
  'Decent job overall. Scheduling took a few back-and-forths.',
] as const;
export const NEGATIVE_REVIEWS = [
  'Waited all day for a window that never happened. Nobody called.',
  'They did a repair and it started leaking again two days later. Still waiting on a callback.',
  'Way overpriced for a 20 minute job. Will not use again.',
  'Tech tracked mud through the house and left the old parts in my driveway.',
  "Got charged a trip fee even though they couldn't fix anything.",
] as const;

// ---------------------------------------------------------------------------
// Small helpers (also used by live.ts)
// ---------------------------------------------------------------------------

export function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => vars[key] ?? match);
}

export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/** A one-line preview for activity summaries (the text stays untrusted). */
export function preview(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

export function shuffle<T>(rng: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function weightedPick<T>(rng: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  const last = entries[entries.length - 1];
  if (!last) throw new RangeError('weightedPick from an empty list');
  return last[0];
}

/** Exactly `count` values in the given proportions (largest remainder), shuffled. */
export function bag<T>(rng: Random, count: number, entries: readonly (readonly [T, number])[]): T[] {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  const shares = entries.map(([value, weight]) => ({ value, exact: (count * weight) / total }));
  const counts = shares.map((share) => Math.floor(share.exact));
  const byRemainder = shares
    .map((share, index) => ({ index, remainder: share.exact - Math.floor(share.exact) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  let missing = count - counts.reduce((sum, n) => sum + n, 0);
  for (const { index } of byRemainder) {
    if (missing-- <= 0) break;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return shuffle(
    rng,
    shares.flatMap((share, index) => Array.from({ length: counts[index] ?? 0 }, () => share.value)),
  );
}

/**
 * An unused fictional phone number: +1 <area code> 555-01xx (the range reserved
 * for fiction), falling back to other 555 numbers once that range is used up.
 */
export function freshPhone(rng: Random, areaCodes: readonly string[], taken: ReadonlySet<string>): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const phone = `+1${rng.pick(areaCodes)}5550${rng.int(101, 199)}`;
    if (!taken.has(phone)) return phone;
  }
  for (const code of areaCodes) {
    for (let line = 101; line <= 199; line++) {
      const phone = `+1${code}5550${line}`;
      if (!taken.has(phone)) return phone;
    }
  }
  for (;;) {
    const phone = `+1${rng.pick(areaCodes)}555${rng.int(1000, 9999)}`;
    if (!taken.has(phone)) return phone;
  }
}

export function phonesOf(shop: SimShop): Set<string> {
  const taken = new Set(shop.contacts.map((contact) => contact.phone));
  if (shop.texting.number) taken.add(shop.texting.number);
  return taken;
}

export function emailFor(rng: Random, name: string): string | null {
  const parts = name.split(/\s+/).map((part) =>
    part
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, ''),
  );
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!first || !last) return null;
  return `${first}.${last}@${rng.pick(EMAIL_DOMAINS)}`;
}

export function makeContact(
  world: World,
  rng: Random,
  name: string,
  phone: string,
  withEmail: boolean,
  addedAt: number,
): SimContact {
  return {
    id: newId(world, () => rng.hex(10), 'ct'),
    name,
    phone,
    email: withEmail ? emailFor(rng, name) : null,
    stage: 'lead',
    lastContactAt: addedAt,
  };
}

/** What the agent drafts to nudge an open lead: a reminder when scheduled, otherwise a check-in. */
export function followUpBody(rng: Random, shop: SimShop, contact: SimContact, lead: SimLead): string {
  const pool = lead.status === 'scheduled' ? REMINDER_TEXTS : FOLLOW_UP_TEXTS;
  return fill(rng.pick(pool), {
    first: firstNameOf(contact.name),
    owner: shop.identity.firstName,
    shop: shop.identity.businessName,
    job: lead.jobType,
    day: rng.pick(DAYS),
    window: rng.pick(WINDOWS),
  });
}

export function reviewText(rng: Random, rating: number): string {
  const pool = rating <= 2 ? NEGATIVE_REVIEWS : rating === 3 ? MIXED_REVIEWS : POSITIVE_REVIEWS;
  return fill(rng.pick(pool), { tech: rng.pick(TECHS) });
}

export const RATING_WEIGHTS = [
  [5, 52],
  [4, 20],
  [3, 8],
  [2, 8],
  [1, 12],
] as const;

export function lastOf<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

export const URGENCY_LABELS: Readonly<Record<string, string>> = {
  same_day: 'same day',
  this_week: 'this week',
  flexible: 'flexible',
};

export function leadCreatedSummary(lead: SimLead, contact: SimContact): string {
  return `New lead: ${lead.jobType} for ${contact.name} (${URGENCY_LABELS[lead.urgency] ?? lead.urgency})`;
}

export function inboundSummary(contact: SimContact, body: string): string {
  return `New text from ${contact.name}: ${preview(body)}`;
}

export function reviewSummary(review: SimReview): string {
  return `New ${review.rating}★ review from ${review.reviewerName}`;
}
