/** Lifecycle operations: what the store holds now, and promotion to permanent convictions. */
import { z } from 'zod';
import { promoteInstinct, unpromoteInstinct } from '../learn/corrections.js';
import { evolve as evolveInstincts } from '../learn/evolve.js';
import { instinctCounts, instinctStatus } from '../learn/stats.js';
import { drainSpool } from '../capture/spool/drain.js';
import { renderAll, renderChanged } from '../view/render.js';
import { defineOperation } from './operation.js';
import { changeSource, patternKey } from './schemas.js';

export const status = defineOperation({
  name: 'lifecycle.status',
  summary: 'Instincts by confidence band and domain (decay applied), convictions, pending observations',
  input: z.object({}),
  run({ store }) {
    // Observations the observe hook spooled since the last hook become pending rows first.
    drainSpool(store, store.paths.home);
    return instinctStatus(store);
  },
});

export const counts = defineOperation({
  name: 'lifecycle.counts',
  summary: 'How many instincts by confidence band (decay applied), convictions and observations: the status as counts only',
  input: z.object({}),
  run({ store }) {
    drainSpool(store, store.paths.home);
    return instinctCounts(store);
  },
});

export const changes = defineOperation({
  name: 'lifecycle.changes',
  summary: "The store's change mark, after the observations hooks spooled became rows: it moves whenever anything is stored",
  input: z.object({}),
  run({ store }) {
    drainSpool(store, store.paths.home);
    return { mark: store.meta.changeMark() };
  },
});

export const evolve = defineOperation({
  name: 'lifecycle.evolve',
  summary: 'Instincts ready to become permanent convictions and why; with promote, promote them',
  input: z.object({ promote: z.boolean().default(false), all: z.boolean().default(false) }),
  run({ store }, input) {
    const result = evolveInstincts(store, { promote: input.promote, includeIneligible: input.all });
    if (input.promote) renderAll(store);
    return result;
  },
});

export const promote = defineOperation({
  name: 'lifecycle.promote',
  summary: 'Promote one instinct to a permanent conviction because you say so (evolve promotes by the rule)',
  input: z.object({ pattern: patternKey(), source: changeSource() }),
  run({ store }, input) {
    const result = promoteInstinct(store, input.pattern, input.source);
    renderChanged(store, [result.pattern]);
    return result;
  },
});

export const unpromote = defineOperation({
  name: 'lifecycle.unpromote',
  summary: 'Withdraw a conviction: the instinct stays, and evolve will not promote it again on its own',
  input: z.object({ pattern: patternKey(), source: changeSource() }),
  run({ store }, input) {
    const result = unpromoteInstinct(store, input.pattern, input.source);
    renderChanged(store, [result.pattern]);
    return result;
  },
});
