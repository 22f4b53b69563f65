/**
 * The Claude Code plugin as Claude Code records it: installed (plugins/installed_plugins.json,
 * under the plugin's name at whichever marketplace) and enabled (`enabledPlugins` in the
 * settings, the project's over the user's). The plugin carries its own hooks, so the settings
 * files alone do not say whether Claude Code runs ours.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedCommands } from './installed.js';
import { targetFor } from './targets.js';

const PLUGIN_NAME = 'homunculus';

interface PluginState {
  /** `homunculus@<marketplace>`. */
  id: string;
  enabled: boolean;
}

function readObject(path: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** The plugin when Claude Code has it installed, and whether it is enabled here; undefined when not installed. */
export function claudePlugin(home: string, cwd: string): PluginState | undefined {
  const dir = join(home, '.claude');
  const installed = field(readObject(join(dir, 'plugins', 'installed_plugins.json')), 'plugins');
  const id = Object.keys(typeof installed === 'object' && installed !== null ? installed : {}).find(
    (key) => key.split('@')[0] === PLUGIN_NAME,
  );
  if (!id) return undefined;
  const settings = [join(cwd, '.claude', 'settings.local.json'), join(cwd, '.claude', 'settings.json'), join(dir, 'settings.json')];
  const flag = settings.map((file) => field(field(readObject(file), 'enabledPlugins'), id)).find((v) => typeof v === 'boolean');
  return { id, enabled: flag === true };
}

/** Whether Claude Code feeds this store anything here: our hooks in its settings (the user's or this project's), or the plugin enabled. */
export function claudeCodeCaptures(home: string, cwd: string): boolean {
  const hooked = (['user', 'project'] as const).some((scope) => installedCommands(targetFor('claude-code', scope, home, cwd)).length > 0);
  return hooked || claudePlugin(home, cwd)?.enabled === true;
}
