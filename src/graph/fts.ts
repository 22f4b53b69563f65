/**
 * The words a full-text search over facts looks for: content words, English and French
 * stop words removed. Documents have their own builder (search/query-text.ts: English stop
 * words, trigram tokens); facts come from French prompts too, so this one also drops French
 * function words.
 */

const STOP = new Set(
  `a an the and or but if of to in on at by for with from into onto as is are was were be been being am do does did done have has had
  it its this that these those there here what which who whom whose when where why how i me my we our you your he she they them their
  not no yes so than then too very can could should would will shall may might must just also about over under again more most some any
  all each both other such only own same few nor le la les un une des du de et ou mais donc or ni car est sont été être avoir a ai as ont
  ce cet cette ces ça cela ceci qui que quoi dont où je tu il elle on nous vous ils elles me te se mon ton son ma ta sa mes tes ses notre votre
  leur leurs pour par sur sous dans avec sans en au aux ne pas plus moins très comme si tout tous toute toutes fait faire please svp stp`.split(
    /\s+/,
  ),
);

export function ftsTerms(text: string, max = 16): string[] {
  const seen = new Set<string>();
  for (const m of text
    .toLowerCase()
    .normalize('NFKC')
    .matchAll(/[\p{L}\p{N}_]+/gu)) {
    const w = m[0];
    if (w.length < 2 || STOP.has(w) || seen.has(w)) continue;
    seen.add(w);
    if (seen.size >= max) break;
  }
  return [...seen];
}
