import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandName } from './argv.js';
import { COMMAND_MODULES, buildProgram } from './program.js';

describe('lazy command loading', () => {
  it('lists exactly the top-level commands each module registers', async () => {
    for (const module of COMMAND_MODULES) {
      const program = new Command();
      (await module.load())(program);
      const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
      expect(names.filter((n) => module.commands.includes(n)).sort(), module.commands.join(',')).toEqual([...module.commands].sort());
      expect(
        program.commands.map((c) => c.name()).every((n) => module.commands.includes(n)),
        module.commands.join(','),
      ).toBe(true);
    }
    const all = COMMAND_MODULES.flatMap((m) => m.commands);
    expect(new Set(all).size).toBe(all.length);
  });

  it('finds the command past global options, and loads every module without one', async () => {
    expect(commandName(['node', 'bin', '--home', '/tmp/x', '--json', 'get', 'seq:a'])).toBe('get');
    expect(commandName(['node', 'bin', '--help'])).toBeUndefined();
    const one = await buildProgram(['node', 'bin', 'get', 'seq:a']);
    expect(one.commands.map((c) => c.name()).sort()).toEqual([
      'alias',
      'consolidate',
      'edit',
      'feedback',
      'forget',
      'get',
      'list',
      'observe',
      'search',
      'stats',
    ]);
    const all = await buildProgram(['node', 'bin', '--help']);
    expect(all.commands.flatMap((c) => [c.name(), ...c.aliases()]).sort()).toEqual(COMMAND_MODULES.flatMap((m) => m.commands).sort());
  });

  it("lists --json and --home in every command's help, subcommands too", async () => {
    const program = await buildProgram(['node', 'bin', '--help']);
    const every = (c: Command): Command[] => [c, ...c.commands.flatMap(every)];
    const helps = program.commands.flatMap(every).map((c) => [c.name(), c.helpInformation()] as const);
    expect(helps.length).toBeGreaterThan(40);
    for (const [name, help] of helps) {
      expect(help, name).toMatch(/--json +print machine-readable JSON/);
      expect(help, name).toContain('--home <dir>');
    }
  });
});
