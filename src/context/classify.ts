/**
 * Deterministic task classification of a prompt, English and French keywords.
 * Each type scores its keyword hits (a question mark counts for "question"); the highest
 * wins, ties go to the more specific type (bugfix > debug > refactor > design > feature >
 * question); no hit is "unknown".
 */

const TASK_TYPES = ['bugfix', 'debug', 'refactor', 'design', 'feature', 'question', 'unknown'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/**
 * Comma-separated keyword patterns, each matched as whole words of the prompt's words (see
 * `spaced`). Plain patterns, not Unicode ones: a hook compiles them all on every call, and
 * seventy `\p{L}` look-arounds cost it some 40 ms.
 */
const w = (words: string): RegExp[] => words.split(',').map((word) => new RegExp(` (?:${word}) `));

/** The prompt's words, lower-case, each between single spaces (apostrophes kept within a word: doesn't, c'est). */
const spaced = (prompt: string): string =>
  ` ${prompt
    .toLowerCase()
    .replace(/’/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean)
    .join(' ')} `;

const KEYWORDS: Record<Exclude<TaskType, 'unknown'>, RegExp[]> = {
  bugfix: w(
    "bugs?,errors?,crash(es|ed|ing)?,fix(es|ed|ing)?,broken,fails?,failing,failed,regression,doesn['’]?t work,does not work,not working,exception,erreurs?,corrige[rsz]?,plante,cass[ée]e?s?,ne marche pas,ne fonctionne pas,bogue",
  ),
  debug: w(
    'debug(ging)?,trace,tracing,logs?,logging,console,inspect,breakpoint,stack ?trace,investigate,why does,d[ée]bogu?e[rz]?,tracer,investigue[rz]?',
  ),
  refactor: w(
    'refactor(ing)?,clean ?up,simplif(y|ier|ie),reorgani[sz]e,r[ée]organise[rz]?,rename,renomme[rz]?,extract,dedup(licate)?,tech(nical)? debt,dette,nettoie[rz]?,restructure[rz]?',
  ),
  design: w('design,ui,ux,layout,components?,composants?,page,pages,styles?,css,theme,th[èe]me,maquette,responsive,tailwind'),
  feature: w(
    'add,adds,adding,create,creating,implement(ing)?,new,build,introduce,support,feature,ajoute[rz]?,ajout,cr[ée]e[rz]?,impl[ée]mente[rz]?,nouveau,nouvelle,nouvel,fonctionnalit[ée]',
  ),
  question: w("why,how,what,which,explain,what['’]s,pourquoi,comment,qu['’]est ce que,explique[rz]?,c['’]est quoi,quel,quelle"),
};

function taskScores(prompt: string): Record<Exclude<TaskType, 'unknown'>, number> {
  const scores = { bugfix: 0, debug: 0, refactor: 0, design: 0, feature: 0, question: 0 };
  const words = spaced(prompt);
  for (const [type, patterns] of Object.entries(KEYWORDS) as [keyof typeof scores, RegExp[]][]) {
    scores[type] = patterns.filter((re) => re.test(words)).length;
  }
  if (/\?\s*$/.test(prompt.trim())) scores.question++;
  return scores;
}

export function classifyTask(prompt: string): TaskType {
  const scores = taskScores(prompt);
  let best: TaskType = 'unknown';
  let top = 0;
  for (const type of TASK_TYPES) {
    if (type === 'unknown') continue;
    if (scores[type] > top) {
      best = type;
      top = scores[type];
    }
  }
  return best;
}
