/**
 * Scripted models for the mind's loops: each answer is picked by the step a prompt belongs
 * to (recognised by the opening words of its prompt.md), so a test scripts a cycle by step
 * name, whatever order the loop asks in. `mindAsk` is the loops' plain `ask`; `mindModel` the
 * AI SDK's mock model playing the same script, for the operations.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { scriptedModel } from './mock-runner.js';

export const STEP_MARK: Readonly<Record<string, string>> = {
  model: 'Describe the current situation',
  candidates: 'Propose up to five',
  'action-predict': 'For each candidate, predict',
  decide: 'Choose one action',
  act: 'standard input of the skill',
  record: 'Write a memory of this action',
  create: 'Write the skill',
  explore: 'ask one open-ended question',
  'explore-predict': 'Predict what exploring',
  'explore-record': 'Write a memory of this exploration',
  review: 'Review these memories',
  ask: 'ask the questions that matter',
  'reflect-predict': 'For each change you consider',
  evolve: 'Propose the changes to make',
};

export const stepOf = (prompt: string): string => Object.keys(STEP_MARK).find((k) => prompt.includes(STEP_MARK[k] as string)) ?? '?';

/** The loops' `ask` answering `byStep`; `seen` lists the steps asked, `prompts` what they were sent. */
export function mindAsk(byStep: Readonly<Record<string, string>>) {
  const seen: string[] = [];
  const prompts: string[] = [];
  const ask = async (_system: string, prompt: string): Promise<string> => {
    const step = stepOf(prompt);
    seen.push(step);
    prompts.push(prompt);
    return byStep[step] ?? '';
  };
  return { seen, prompts, ask };
}

/** The AI SDK's mock model answering `byStep` (by the prompt's step); `seen` lists the steps asked. */
export function mindModel(byStep: Readonly<Record<string, string>>): { model: MockLanguageModelV3; seen: string[]; prompts: string[] } {
  const seen: string[] = [];
  const prompts: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const prompt = options.prompt
        .filter((m) => m.role === 'user')
        .flatMap((m) => m.content.map((c) => (c.type === 'text' ? c.text : '')))
        .join('\n');
      const step = stepOf(prompt);
      seen.push(step);
      prompts.push(prompt);
      return scriptedModel([{ text: byStep[step] ?? '' }]).doGenerate(options);
    },
  });
  return { model, seen, prompts };
}
