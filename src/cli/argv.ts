/** Reading a command line before any framework loads (bin.ts routes on it). */

/** Where the command stands in argv: the first word that is not a global option or its value; -1 when there is none. */
export function commandIndex(argv: readonly string[]): number {
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--home') i++;
    else if (!a.startsWith('-')) return i;
  }
  return -1;
}

/** The command a command line names. */
export function commandName(argv: readonly string[]): string | undefined {
  const at = commandIndex(argv);
  return at < 0 ? undefined : argv[at];
}
