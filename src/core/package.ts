/** How this program is published and installed, for messages that tell users what to run. */
const PACKAGE_NAME = 'homunculus-memory';

/** The command that installs (or upgrades) the `homunculus` binary. */
export const INSTALL_COMMAND = `npm install -g ${PACKAGE_NAME}`;

let cached: string | undefined;

/** This build's version, from package.json. */
export function packageVersion(): string {
  if (cached === undefined) {
    try {
      const { readFileSync } = process.getBuiltinModule('node:fs');
      cached = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
