import { describe, expect, it } from 'vitest';
import { portFlag, readFlags } from './flags.js';

const spec = { command: 'dashboard', booleans: ['help', 'json'], values: ['port', 'home'] };

describe('surface flags', () => {
  it('reads booleans, values as the next word or after =, and -h as --help', () => {
    expect(readFlags(['--port', '0', '--home=/tmp/h', '--json', '-h'], spec)).toEqual({
      port: '0',
      home: '/tmp/h',
      json: true,
      help: true,
    });
  });

  it('refuses unknown flags, a missing value and a value given to a boolean, saying where the help is', () => {
    expect(() => readFlags(['--bind', 'x'], spec)).toThrow(/Unknown option "--bind" for homunculus dashboard/);
    expect(() => readFlags(['--port'], spec)).toThrow(/--port needs a value/);
    // An empty value, or the next option taken for one (`--home --no-open` would name a directory "--no-open").
    expect(() => readFlags(['--home', '--json'], spec)).toThrow('--home needs a value, not the option --json.');
    expect(() => readFlags(['--home='], spec)).toThrow('--home needs a value.');
    expect(() => readFlags(['--home', ' '], spec)).toThrow('--home needs a value.');
    expect(readFlags(['--home', '-h'], spec)).toEqual({ home: '-h' });
    expect(() => readFlags(['--json=yes'], spec)).toThrow(/Unknown option "--json=yes"/);
    expect(portFlag('7422')).toBe(7422);
    for (const bad of ['-1', '65536', 'http', '1e3', ''])
      expect(() => portFlag(bad)).toThrow(/--port must be a whole number from 0 to 65535/);
  });
});
