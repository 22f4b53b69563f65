import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOSQUITTO, hasMosquitto } from '../../test-support/shared.js';
import { mqttPublish, mqttSubscribe, topicProblem } from './mqtt.js';
import { ToolRegistry } from './registry.js';

describe('topicProblem', () => {
  it('keeps wildcards to subscriptions and topics under the allowed prefixes', () => {
    expect(topicProblem('home/+/light', false, undefined)).toMatch(/wildcard/);
    expect(topicProblem('home/+/light', true, undefined)).toBeUndefined();
    expect(topicProblem('home/#/x', true, undefined)).toMatch(/last level/);
    expect(topicProblem('garage/door', false, ['home'])).toMatch(/outside the allowed topics \(home\)/);
    expect(topicProblem('homeless/x', false, ['home'])).toMatch(/outside/);
    expect(topicProblem('home/light', false, ['home'])).toBeUndefined();
  });

  it('refuses with the fix when no broker is configured', async () => {
    const r = await new ToolRegistry([mqttSubscribe]).run('mqtt_subscribe', { topic: 'a' }, { workspace: '/x', home: '/x', session: 't' });
    expect(r).toMatchObject({ ok: false, error: /No MQTT broker is configured/, hint: /agent\.mqtt/ });
  });
});

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });

const accepting = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), done(true)));
    socket.on('error', () => done(false));
  });

describe.runIf(hasMosquitto('mqtt round trip against mosquitto'))('mqtt tools against mosquitto', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hom-mqtt-'));
  let broker: ChildProcess;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    const config = join(dir, 'mosquitto.conf');
    writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    broker = spawn(MOSQUITTO, ['-c', config], { stdio: 'ignore' });
    url = `mqtt://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !(await accepting(port)); i++) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(() => {
    broker.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const ctx = () => ({ workspace: '/x', home: '/x', session: 't', mqtt: { url, topics: ['home'] } });

  it('publishes only after a yes, and a subscriber hears it', async () => {
    const registry = new ToolRegistry([mqttPublish, mqttSubscribe]);
    const listener = await connectAsync(url);
    const heard: string[] = [];
    listener.on('message', (topic, payload) => heard.push(`${topic}=${payload.toString()}`));
    await listener.subscribeAsync('home/#');
    expect(await registry.run('mqtt_publish', { topic: 'home/light', message: 'on' }, ctx())).toMatchObject({ refused: 'unconfirmed' });
    const r = await registry.run('mqtt_publish', { topic: 'home/light', message: 'on', qos: 1 }, { ...ctx(), confirm: async () => true });
    expect(r).toMatchObject({ ok: true, output: { topic: 'home/light', bytes: 2 } });
    for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((res) => setTimeout(res, 20));
    expect(heard).toEqual(['home/light=on']);
    await listener.endAsync();
  });

  it('subscribes until N messages arrive, or until the timeout', async () => {
    const registry = new ToolRegistry([mqttSubscribe]);
    const publisher = await connectAsync(url);
    const waiting = registry.run('mqtt_subscribe', { topic: 'home/+/temp', count: 2, timeout_seconds: 5 }, ctx());
    let n = 0;
    const timer = setInterval(() => void publisher.publishAsync(`home/room${n}/temp`, String(20 + n++)), 100);
    const r = await waiting;
    clearInterval(timer);
    await publisher.endAsync();
    expect(r).toMatchObject({ ok: true, output: { timed_out: false } });
    const out = (r as { output: { messages: { topic: string }[] } }).output;
    expect(out.messages).toHaveLength(2);
    expect(out.messages[0]?.topic).toMatch(/^home\/room\d+\/temp$/);
    const quiet = await registry.run('mqtt_subscribe', { topic: 'home/nothing', timeout_seconds: 0.3 }, ctx());
    expect(quiet).toMatchObject({ ok: true, output: { messages: [], timed_out: true } });
    expect(await registry.run('mqtt_subscribe', { topic: 'garage/#' }, ctx())).toMatchObject({ ok: false, error: /outside the allowed/ });
  });
});
