/** How agents and background jobs run this CLI: the built entry point of this installation. */
import { fileURLToPath } from 'node:url';

/** dist/cli/bin.js of this installation. */
export const CLI_ENTRY = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
