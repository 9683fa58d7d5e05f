/**
 * Canned replies in the composer, against the simulator: ctrl-t opens the
 * fuzzy picker, enter puts the template in at the cursor filled in with what
 * the API gave for this customer, segments are counted after filling, and a
 * text with a variable nothing fills is refused with its name.
 */
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { EXAMPLE_TEMPLATES } from '../../src/user-actions/templates.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  inboxLeadWhere,
  recordWire,
  selectLeadByPhone,
  simConsent,
  simContactOfLead,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

const CTRL_T = '\u0014';

async function start(templates = EXAMPLE_TEMPLATES, problem?: string) {
  const tui = await startTui({
    columns: 100,
    rows: 30,
    session: { templates, ...(problem ? { templatesProblem: problem } : {}) },
  });
  const wire = recordWire(tui.s.sim);
  await waitStartup(tui);
  return { tui, wire };
}

async function composeToConsenting(tui: TestTui) {
  const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
  await selectLeadByPhone(tui, target.contact.phone);
  await tui.press('c');
  await waitComposer(tui, target.contact.id);
  return target;
}

describe('templates in the composer', () => {
  it('ctrl-t, a few letters, enter: the template filled in for this customer, at the cursor', async () => {
    const { tui, wire } = await start();
    const { leadId, contact } = await composeToConsenting(tui);
    const { lead } = simContactOfLead(tui.s.sim, leadId);
    const first = contact.name.split(' ')[0];
    await tui.press('PS: ', '\u0001');
    await tui.press(CTRL_T);
    await tui.waitFor('Templates — type to find');
    await tui.press('way');
    // The highlighted template shows as it would be sent.
    await tui.waitFor(`Hi ${first}, our tech is on the way for your ${lead.jobType}`);
    await tui.press(KEYS.enter);
    const expected = `Hi ${first}, our tech is on the way for your ${lead.jobType} and should be there within the hour.PS: `;
    expect(composedText(tui, contact.id)).toBe(expected);
    expect(tui.state().templatePicker).toBeUndefined();
    // Counted as filled in, not as the template.
    await tui.waitFor(`${[...expected].length} characters · 1 segment (GSM-7)`);
    expect(wire.writes).toEqual([]);
  });

  it('esc closes the picker and keeps the text; the business name and texting number come from the API', async () => {
    const { tui } = await start();
    const { contact } = await composeToConsenting(tui);
    await tui.press('Hello', CTRL_T);
    await tui.waitFor('Templates — type to find');
    await tui.press(KEYS.escape);
    await tui.waitFor((_frame, state) => state.templatePicker === undefined);
    expect(composedText(tui, contact.id)).toBe('Hello');
    await tui.press(KEYS.backspace.repeat(5), CTRL_T, 'thank', KEYS.enter);
    expect(composedText(tui, contact.id)).toBe(
      `Thanks for choosing Rivera Plumbing & Heating, ${contact.name.split(' ')[0]}! If anything comes up, text us at +15035550100.`,
    );
  });

  it('a variable nothing fills stays, and the text is refused with its name', async () => {
    const { tui, wire } = await start([{ name: 'Pet', body: 'Hi {first_name}, is {pet_name} friendly?' }]);
    const { contact } = await composeToConsenting(tui);
    await tui.press(CTRL_T, KEYS.enter);
    expect(composedText(tui, contact.id)).toBe(`Hi ${contact.name.split(' ')[0]}, is {pet_name} friendly?`);
    await tui.press(KEYS.enter);
    await tui.waitFor(`Not sent to ${contact.name} (${contact.phone}): The text still has {pet_name}`);
    expect(tui.state().prompt).toBeUndefined();
    expect(wire.writes).toEqual([]);
  });

  it('a templates.json that cannot be used: ctrl-t says why, in plain words', async () => {
    const { tui } = await start(
      [],
      'templates.json is not valid JSON, so no templates are offered: fix or delete /home/x/.config/shop-inbox/templates.json.',
    );
    await composeToConsenting(tui);
    await tui.press(CTRL_T);
    await tui.waitFor('is not valid JSON, so no templates are offered');
    expect(tui.state().templatePicker).toBeUndefined();
  });

  it('a templates.json that cannot be used is said at start, and kept in the message log', async () => {
    const problem =
      '/home/x/.config/shop-inbox/templates.json is writable by others (mode 0646): whoever can change it chooses the words staff send to customers, so no templates are offered. Fix it with: chmod go-w /home/x/.config/shop-inbox/templates.json';
    const { tui } = await start([], problem);
    await tui.waitFor('templates.json is writable by others');
    expect(tui.state().log).toContainEqual(expect.objectContaining({ text: problem, tone: 'warning' }));
  });

  it('the wallboard, which never composes, says nothing of templates', async () => {
    const s = await startSim();
    const session = createSession({
      baseUrl: s.baseUrl,
      apiKey: s.sim.tokens.read,
      view: 'wallboard',
      templates: [],
      templatesProblem: 'templates.json is not valid JSON, so no templates are offered.',
    });
    expect(session.store.getState().notice).toBeUndefined();
    expect(session.store.getState().log).toEqual([]);
    session.close();
  });
});
