/**
 * Stop words, each kind listed once. English and French function words carry no topic of
 * their own; the named extras are what a particular use also leaves out. A use composes
 * its set with `stopSet` from these lists rather than keeping a list of its own. Pure.
 */

const list = (words: string): readonly string[] => Object.freeze(words.trim().split(/\s+/));

/** English function words: determiners, pronouns, auxiliaries and modals, prepositions, conjunctions, adverbs of place, time and degree. */
export const ENGLISH = list(`
  a an the this that these those all any both each few more most much many other some such no nor not only own same
  i me my myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
  it its itself they them their theirs themselves what which who whom whose
  am is are was were be been being have has had having do does did doing done
  can cannot could may might must shall should will would ought let
  about above after against at before below between by down during for from in into of off on onto out over through
  to under until up with
  and but if or because as than so while once
  again also ever further here how just now then there too very when where why
`);

/**
 * What a tokenizer that splits on the apostrophe leaves of English contractions: "don't"
 * gives "don" and "t", "we'll" gives "we" and "ll". Listing "don't" itself would never match.
 */
export const CONTRACTIONS = list(`
  s t d ll m re ve don doesn didn isn wasn aren weren won wouldn shouldn couldn haven hasn hadn mustn shan needn
`);

/** French function words, and the elided forms an apostrophe leaves ("l'API" gives "l", "qu'il" gives "qu"). */
export const FRENCH = list(`
  le la les un une des du de au aux ce cet cette ces mon ton son ma ta sa mes tes ses notre votre leur leurs
  tout tous toute toutes
  je tu il elle on nous vous ils elles me te se moi toi y en qui que quoi dont où ça cela ceci
  est sont était été être avoir a ai as ont fait faire
  à pour par sur sous dans avec sans et ou mais donc or ni car si comme quand ne pas plus moins très avant après
  c d j l m n qu s t
`);

/** Vague words of questions ("what kind of thing did she get?"): left out of search queries. */
export const VAGUE = list(`get got really one ones thing things like kind sort`);

/** Greetings, thanks and assent, in English and French: what a prompt says to be polite. */
export const COURTESY = list(`yes yeah ok okay hey hi please pls thanks thank sure merci svp stp`);

/** Conversational filler of prompts to a coding agent ("I want to make a new thing, can you look?"). */
export const PROMPT_FILLER = list(`
  maybe actually still want need make go going look see think know way something anything two new use used using via etc lets
`);

/** Words that say a value changed, or that relate a subject to its value, in English and French: not the attribute. */
export const CHANGE_WORDS = list(`
  currently today changed change changes moved move moves updated update improved improve increased decreased dropped reduced
  raised became become becomes switched switch instead longer anymore new old latest previous previously still actually set less
  get got gets use uses used using make makes made prefer prefers preferred like likes need needs want wants said says
  maintenant désormais plutôt changé passé passe devenu devient nouveau nouvelle ancien ancienne utilise utilisé préfère
`);

/** Words of instructions ("always use X, never Y instead"), in English and French: not what the instruction is about. */
export const INSTRUCTION_WORDS = list(`
  always never whenever every everything anything something rather instead use using used really jamais toujours rien utilise utiliser
`);

/** One set from several lists. */
export function stopSet(...lists: readonly (readonly string[])[]): ReadonlySet<string> {
  return new Set(lists.flat());
}
