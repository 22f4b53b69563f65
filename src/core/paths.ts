import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/** The rendered, human-readable layout under the home directory. */
export interface HomePaths {
  home: string;
  db: string;
  config: string;
  identity: string;
  convictions: string;
  instincts: string;
  sessions: string;
  episodes: string;
  exports: string;
  logs: string;
  /** Where hooks log what failed (they never fail the agent). */
  hookLog: string;
  /** One JSON line per hook call: which hook, how long, how it ended (telemetry). */
  hookCalls: string;
  locks: string;
  observerLog: string;
  lastProcessingLog: string;
  /** The secret a local server asks its clients for (mode 0600). */
  serverToken: string;
  /** The personal agent's workspace: the only directory its tools and sandboxed commands may write. */
  workspace: string;
  /** The personal agent's hash-chained audit log (JSONL). */
  audit: string;
  /** The bcrypt hash of the gateway's bearer token (never the token itself). */
  agentToken: string;
  /** Where a running gateway says which port and process it is (removed when it stops). */
  gatewayState: string;
  /** Checkouts joined to the history imported under their repository's name (core/project-alias.ts). */
  projectAliases: string;
}

export function resolveHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return resolve(explicit);
  if (env.HOMUNCULUS_HOME) return resolve(env.HOMUNCULUS_HOME);
  return join(env.HOME ?? homedir(), '.homunculus');
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    db: join(home, 'homunculus.db'),
    config: join(home, 'config.json'),
    identity: join(home, 'identity.json'),
    convictions: join(home, 'convictions.md'),
    instincts: join(home, 'instincts', 'personal'),
    sessions: join(home, 'sessions'),
    episodes: join(home, 'episodes'),
    exports: join(home, 'exports'),
    logs: join(home, 'logs'),
    hookLog: join(home, 'logs', 'hooks.log'),
    hookCalls: join(home, 'logs', 'hook-calls.jsonl'),
    locks: join(home, 'locks'),
    observerLog: join(home, 'observer.log'),
    lastProcessingLog: join(home, 'last-processing.log'),
    projectAliases: join(home, 'projects.json'),
    serverToken: join(home, 'server-token'),
    workspace: join(home, 'workspace'),
    audit: join(home, 'logs', 'agent-audit.jsonl'),
    agentToken: join(home, 'agent-token.bcrypt'),
    gatewayState: join(home, 'gateway.json'),
  };
}

/**
 * A home named on purpose (--home, HOMUNCULUS_HOME) that does not exist: a typo, refused with
 * the fix by a command that would otherwise begin an empty store there (one that is a file, in
 * its own words); undefined otherwise.
 */
export function namedHomeMissing(explicit?: string, env: NodeJS.ProcessEnv = process.env): UsageError | undefined {
  const named = explicit ?? env.HOMUNCULUS_HOME;
  if (!named) return undefined;
  const home = resolve(named);
  const notDirectory = homeNotDirectory(home);
  if (notDirectory || existsSync(home)) return notDirectory;
  return new UsageError(
    `There is no Homunculus store at ${home}.`,
    'Check --home (or HOMUNCULUS_HOME) for a typo; `homunculus sync` creates a store there.',
  );
}

/** A home (--home, HOMUNCULUS_HOME, ~/.homunculus) that is there but is a file: every path under it fails with ENOTDIR. */
export function homeNotDirectory(home: string): UsageError | undefined {
  let file: boolean;
  try {
    file = statSync(home, { throwIfNoEntry: false })?.isDirectory() === false;
  } catch (err) {
    file = (err as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
  if (!file) return undefined;
  return new UsageError(
    `The Homunculus home ${home} is a file (or lies under one), not a directory.`,
    'Point --home (or HOMUNCULUS_HOME) at a directory, or move the file aside; `homunculus sync` creates a store there.',
  );
}
