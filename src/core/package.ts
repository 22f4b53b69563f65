/** How this program is published and installed, for messages that tell users what to run. */
export const PACKAGE_NAME = 'homunculus-memory';

/** The command that installs (or upgrades) the `homunculus` binary. */
export const INSTALL_COMMAND = `npm install -g ${PACKAGE_NAME}`;
