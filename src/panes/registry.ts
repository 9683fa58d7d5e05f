/**
 * Every pane, in tab order: the tabs, the keys 1–N, tab/shift-tab, the
 * poller's plan, the help, selection following and "new" marks all come from
 * this list. A new pane is a file beside this one and a line here.
 */
import { actionsPane } from './actions.js';
import { contactsPane } from './contacts.js';
import { inboxPane } from './inbox.js';
import { paneSet } from './pane-set.js';
import { reviewsPane } from './reviews.js';
import { threadPane } from './thread.js';
import { todayPane } from './today.js';

export const REGISTRY = paneSet([inboxPane, threadPane, reviewsPane, actionsPane, contactsPane, todayPane]);

export const { panes: PANES, paneById, widePair, panesOnScreen, visible } = REGISTRY;
