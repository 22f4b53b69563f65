import { describe, expect, it } from 'vitest';
import { loadToolSettings } from './tool-config.js';

describe('loadToolSettings', () => {
  it('gives the defaults without an agent section, and leaves other agent keys alone', () => {
    expect(loadToolSettings({})).toEqual({
      gateway: { port: 7423, rate: { perMinute: 60, burst: 20 } },
      web: { allow: [], maxBytes: 1_000_000, timeoutMs: 10_000, maxRedirects: 5 },
    });
    expect(loadToolSettings({ agent: { local: { provider: 'ollama' } } }).gateway.port).toBe(7423);
  });

  it('reads the broker, its password from the environment, and the allowed origins', () => {
    const s = loadToolSettings(
      { agent: { web: { allow: ['http://127.0.0.1:8080'] }, mqtt: { url: 'mqtt://127.0.0.1:1883', username: 'u', passwordEnv: 'MQ_PW' } } },
      { MQ_PW: 'secret' },
    );
    expect(s.web.allow).toEqual(['http://127.0.0.1:8080']);
    expect(s.mqtt).toEqual({ url: 'mqtt://127.0.0.1:1883', username: 'u', password: 'secret' });
  });

  it('refuses an allow entry wider than an origin, a bad broker URL and an unset password variable, naming the key', () => {
    for (const allow of ['127.0.0.1', 'http://127.0.0.1:8080/', 'http://127.0.0.1:8080/admin', 'file:///etc'])
      expect(() => loadToolSettings({ agent: { web: { allow: [allow] } } }), allow).toThrow(/agent\.web\.allow\.0 must be an origin/);
    expect(() => loadToolSettings({ agent: { mqtt: { url: 'http://x' } } })).toThrow(/agent\.mqtt\.url must be mqtt:/);
    expect(() => loadToolSettings({ agent: { mqtt: { url: 'mqtt://x:1', passwordEnv: 'NOPE' } } }, {})).toThrow(/NOPE, which is not set/);
    expect(() => loadToolSettings({ agent: { gateway: { port: 70000 } } })).toThrow(/agent\.gateway\.port/);
  });
});
