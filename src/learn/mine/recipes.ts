/**
 * Command recipes: a stock command the project always runs with the same setting flag and
 * target (`go test -tags=integration ./cmd/app/integration_test/`, `go build -o /tmp/app
 * ./cmd/app`). The signature alone ("go test") is generic; the flag that makes it work here
 * is project knowledge. Flags that only change what is printed or which test runs are
 * dropped, so one recipe covers every test name and verbosity. Pure functions, no I/O.
 */
import { shellWords } from '../../core/shell.js';
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import { isEcosystemDefault, splitCommand } from './commands.js';

/** Flags that select, repeat or print, never what makes the command work in this project. */
const INCIDENTAL = /^-{1,2}(?:v|verbose|count|run|race|timeout|json|short|failfast|cover\w*|p|parallel|x|q|quiet)(?:=|$)/;
/** Flags whose value is the next word. */
const TAKES_VALUE = new Set(['-o', '-tags', '--tags', '-run', '-count', '-timeout', '-p']);

interface Recipe {
  shape: string;
  /** The settings that make it a recipe, e.g. `-tags=integration`. */
  settings: string[];
}

/** The recipe in one segment of a command, or undefined when it has no setting flag. */
export function recipeOf(segment: string, signature: string): Recipe | undefined {
  if (!isEcosystemDefault(signature)) return undefined;
  const words = shellWords(segment).slice(signature.split(' ').length);
  const settings: string[] = [];
  let target = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w.startsWith('-')) {
      const separate = TAKES_VALUE.has(w) && words[i + 1] !== undefined;
      const joined = separate ? `${w}=${words[++i] as string}` : w;
      // Written back the way it was typed: `-o /tmp/app`, `-tags=integration`.
      if (!INCIDENTAL.test(joined) && joined.includes('='))
        settings.push(separate ? joined.replace('=', ' ') : joined.replace(/^--?/, '-'));
    } else if (!target && /^\.{0,2}\/|\//.test(w)) target = w.replace(/\/\.\.\.$|\/$/, '');
  }
  if (settings.length === 0 || !target) return undefined;
  settings.sort();
  return { shape: `${signature} ${settings.join(' ')} ${target}`, settings };
}

/** One candidate per recipe the session ran successfully. */
export function mineRecipes(observations: readonly Obs[]): Candidate[] {
  const out = new Map<string, Candidate>();
  for (const o of observations) {
    if (!isBash(o) || o.outcome !== 'ok') continue;
    for (const segment of splitCommand(o.input)) {
      const recipe = recipeOf(segment.text, segment.signature);
      if (!recipe || out.has(recipe.shape)) continue;
      const where = o.projectName || 'this project';
      const purpose = o.intent ? ` (e.g. "${truncate(o.intent, 80)}")` : '';
      out.set(recipe.shape, {
        key: `pref:${slugify(where)}/recipe=${slugify(recipe.shape)}`,
        category: 'preference',
        domain: 'tooling',
        title: `${where}: ${recipe.shape}`,
        trigger: `when running ${backtick(segment.signature)} on ${backtick(recipe.shape.split(' ').at(-1) ?? '')} in ${where}${purpose}`,
        action: `Run it as ${backtick(recipe.shape)}: ${recipe.settings.map(backtick).join(' and ')} is how this project runs it${segment.signature.endsWith(' test') ? ' (add `-run TestName` or `-v` as needed)' : ''}.`,
        explain: `Ran ${backtick(truncate(segment.text, 140))}.`,
        evidence: [`ran ${backtick(truncate(segment.text, 120))}`],
        subjects: [recipe.shape, ...recipe.settings],
        miner: 'recipe',
        notable: false,
        tags: ['tooling', 'recipe'],
        ...seenIn(o),
        facts: { recipe: recipe.shape, command: recipe.shape },
      });
    }
  }
  return [...out.values()];
}
