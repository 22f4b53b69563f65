/**
 * The Claude Code plugin as Claude Code records it: installed (plugins/installed_plugins.json,
 * under the plugin's name at whichever marketplace) and enabled (`enabledPlugins` in the
 * settings, the project's over the user's). The plugin carries its own hooks, so the settings
 * files alone do not say whether Claude Code runs ours.
 */
import { join } from 'node:path';
import { installedCommands } from './installed.js';
import { claudeProjectSettings, decidingSetting, readObj, sub } from './settings-files.js';
import { AGENTS, type Agent } from '../agents.js';
import { targetFor } from './targets.js';

const PLUGIN_NAME = 'homunculus';

interface PluginState {
  /** `homunculus@<marketplace>`. */
  id: string;
  enabled: boolean;
}

/** The plugin when Claude Code has it installed, and whether it is enabled here; undefined when not installed. */
export function claudePlugin(home: string, cwd: string): PluginState | undefined {
  const dir = join(home, '.claude');
  const installed = sub(readObj(join(dir, 'plugins', 'installed_plugins.json')), 'plugins');
  const id = Object.keys(installed).find((key) => key.split('@')[0] === PLUGIN_NAME);
  if (!id) return undefined;
  const said = decidingSetting([...claudeProjectSettings(cwd), join(dir, 'settings.json')], (o) => sub(o, 'enabledPlugins')[id]);
  return { id, enabled: said?.value === true };
}

/** Whether Claude Code feeds this store anything here: our hooks in its settings (the user's or this project's), or the plugin enabled. */
export function claudeCodeCaptures(home: string, cwd: string): boolean {
  const hooked = (['user', 'project'] as const).some((scope) => installedCommands(targetFor('claude-code', scope, home, cwd)).length > 0);
  return hooked || claudePlugin(home, cwd)?.enabled === true;
}

/** The agents that feed this store by themselves here: their hooks installed (the user's or this project's), or Claude Code's plugin. */
export function capturingAgents(home: string, cwd: string): Agent[] {
  return AGENTS.filter((agent) =>
    agent === 'claude-code'
      ? claudeCodeCaptures(home, cwd)
      : (['user', 'project'] as const).some((scope) => installedCommands(targetFor(agent, scope, home, cwd)).length > 0),
  );
}
