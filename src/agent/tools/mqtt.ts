/**
 * mqtt_publish and mqtt_subscribe: the broker the person configured (config.json
 * agent.mqtt), never one the model names. Publishing changes something in the world (a
 * light, a lock), so it needs a yes; subscribing only listens, for N messages or until a
 * timeout. With `topics` set, only topics under those prefixes are reached.
 */
import { type MqttClient, connectAsync } from 'mqtt';
import { z } from 'zod';
import { HomunculusError, UsageError } from '../../core/errors.js';
import { defineTool } from './registry.js';

export interface MqttPolicy {
  /** mqtt://host:port or mqtts://host:port. */
  url: string;
  username?: string;
  password?: string;
  /** Topic prefixes the tools may use; absent, any topic. */
  topics?: readonly string[];
  /** How long a connection may take (default 5 s). */
  connectTimeoutMs?: number;
}

const MAX_WAIT_S = 60;

function policyOf(mqtt: MqttPolicy | undefined): MqttPolicy {
  if (!mqtt)
    throw new HomunculusError('mqtt_unconfigured', 'No MQTT broker is configured, so the mqtt tools cannot run.', {
      hint: 'Set config.json agent.mqtt to {"url": "mqtt://127.0.0.1:1883"} (and username/password if the broker asks).',
    });
  return mqtt;
}

/** Why a topic (or, when subscribing, a filter) may not be used; undefined when it may. Pure. */
export function topicProblem(topic: string, filter: boolean, prefixes: readonly string[] | undefined): string | undefined {
  if (topic.includes('\0')) return 'contains a NUL byte';
  if (!filter && /[+#]/.test(topic)) return 'has a wildcard (+ or #), which only subscriptions may use';
  if (filter && /#./.test(topic)) return 'has # before its end (# must be the last level)';
  if (prefixes && !prefixes.some((p) => topic === p || topic.startsWith(p.endsWith('/') ? p : `${p}/`)))
    return `is outside the allowed topics (${prefixes.join(', ')})`;
  return undefined;
}

function checkTopic(topic: string, filter: boolean, policy: MqttPolicy): void {
  const problem = topicProblem(topic, filter, policy.topics);
  if (problem) throw new UsageError(`The topic ${JSON.stringify(topic)} ${problem}.`, 'Use a plain topic such as "home/livingroom/light".');
}

async function connected(policy: MqttPolicy): Promise<MqttClient> {
  try {
    return await connectAsync(policy.url, {
      connectTimeout: policy.connectTimeoutMs ?? 5_000,
      reconnectPeriod: 0,
      ...(policy.username ? { username: policy.username } : {}),
      ...(policy.password ? { password: policy.password } : {}),
    });
  } catch (err) {
    throw new HomunculusError('mqtt_connect', `Cannot reach the MQTT broker ${policy.url}: ${(err as Error).message}.`, {
      hint: 'Check that the broker runs and that config.json agent.mqtt names it.',
    });
  }
}

export const mqttPublish = defineTool({
  name: 'mqtt_publish',
  description: 'Publish one message to an MQTT topic on the configured broker (a device may act on it).',
  input: z
    .object({
      topic: z.string().min(1).max(256),
      message: z.string().max(65_536),
      qos: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
      retain: z.boolean().default(false),
    })
    .strict(),
  trust: 'external',
  confirm: true,
  check: (ctx, input) => checkTopic(input.topic, false, policyOf(ctx.mqtt)),
  run: async (ctx, input) => {
    const policy = policyOf(ctx.mqtt);
    checkTopic(input.topic, false, policy);
    const client = await connected(policy);
    try {
      await client.publishAsync(input.topic, input.message, { qos: input.qos, retain: input.retain });
      return { topic: input.topic, bytes: Buffer.byteLength(input.message), qos: input.qos, retain: input.retain };
    } finally {
      await client.endAsync();
    }
  },
});

export const mqttSubscribe = defineTool({
  name: 'mqtt_subscribe',
  description: `Listen on an MQTT topic (+ and # wildcards allowed) until \`count\` messages arrive or \`timeout_seconds\` pass (at most ${MAX_WAIT_S}).`,
  input: z
    .object({
      topic: z.string().min(1).max(256),
      count: z.number().int().min(1).max(100).default(1),
      timeout_seconds: z.number().positive().max(MAX_WAIT_S).default(10),
    })
    .strict(),
  trust: 'external',
  confirm: false,
  run: async (ctx, input) => {
    const policy = policyOf(ctx.mqtt);
    checkTopic(input.topic, true, policy);
    const client = await connected(policy);
    const messages: { topic: string; message: string }[] = [];
    try {
      await new Promise<void>((done, fail) => {
        const timer = setTimeout(done, input.timeout_seconds * 1000);
        client.on('message', (topic, payload) => {
          messages.push({ topic, message: payload.toString('utf8').slice(0, 65_536) });
          if (messages.length >= input.count) {
            clearTimeout(timer);
            done();
          }
        });
        client.subscribeAsync(input.topic).catch((err: unknown) => {
          clearTimeout(timer);
          fail(err);
        });
      });
      return { topic: input.topic, messages, timed_out: messages.length < input.count };
    } finally {
      await client.endAsync();
    }
  },
});

/** The tools that need a broker (agent.mqtt in config.json). */
export const MQTT_TOOLS: ReadonlySet<string> = new Set([mqttPublish.name, mqttSubscribe.name]);

/** Whether a tool can work with the services configured: the MQTT tools only with a broker (agent.mqtt). Pure. */
export const toolAvailable = (name: string, services: { mqtt?: unknown }): boolean => services.mqtt !== undefined || !MQTT_TOOLS.has(name);
