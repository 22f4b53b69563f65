/**
 * The gateway's and the network tools' keys of config.json's `agent` section, validated with
 * zod: `agent.gateway` (port, rate limit), `agent.web` (origins web_fetch may reach although
 * they are private, its limits) and `agent.mqtt` (the broker; its password is read from an
 * environment variable, never written in the file). Every error names the key and the fix.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';
import type { RateLimit } from '../core/rate-limit.js';
import type { MqttPolicy } from './tools/mqtt.js';
import type { WebPolicy } from './tools/web-fetch.js';

/** An origin exactly (`http://127.0.0.1:8080`): no path, query or credentials, so a grant cannot be wider than it reads. */
const origin = z.string().refine(
  (s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
    } catch {
      return false;
    }
  },
  { message: 'must be an origin such as "http://127.0.0.1:8080" (scheme, host and port only, no trailing slash)' },
);

const webSchema = z
  .object({
    allow: z.array(origin).max(100).default([]),
    maxBytes: z.number().int().min(1_000).max(50_000_000).default(1_000_000),
    timeoutSeconds: z.number().min(1).max(120).default(10),
    maxRedirects: z.number().int().min(0).max(20).default(5),
  })
  .strict();

const mqttSchema = z
  .object({
    url: z.string().regex(/^mqtts?:\/\/[^/\s]+$/, 'must be mqtt://host:port or mqtts://host:port'),
    username: z.string().min(1).max(200).optional(),
    passwordEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as MQTT_PASSWORD')
      .optional(),
    topics: z.array(z.string().min(1).max(256)).max(100).optional(),
  })
  .strict();

const gatewaySchema = z
  .object({
    port: z.number().int().min(0).max(65_535).default(7423),
    ratePerMinute: z.number().min(1).max(100_000).default(60),
    burst: z.number().int().min(1).max(10_000).default(20),
  })
  .strict();

const sectionSchema = z.looseObject({
  gateway: gatewaySchema.default({ port: 7423, ratePerMinute: 60, burst: 20 }),
  web: webSchema.default({ allow: [], maxBytes: 1_000_000, timeoutSeconds: 10, maxRedirects: 5 }),
  mqtt: mqttSchema.optional(),
});

export interface ToolSettings {
  gateway: { port: number; rate: RateLimit };
  web: WebPolicy;
  mqtt?: MqttPolicy;
}

const EXAMPLE =
  '{"agent": {"gateway": {"port": 7423}, "web": {"allow": ["http://127.0.0.1:8080"]}, "mqtt": {"url": "mqtt://127.0.0.1:1883", "topics": ["home"]}}}';

/** The validated keys (defaults when absent), or an error naming each bad one. */
export function loadToolSettings(config: Config, env: NodeJS.ProcessEnv = process.env): ToolSettings {
  const parsed = sectionSchema.safeParse(config.agent ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `agent${i.path.length ? `.${i.path.join('.')}` : ''} ${i.message}`).join('; ');
    throw new HomunculusError('config', `Invalid "agent" section in config.json: ${problems}.`, { hint: `Fix it. Example: ${EXAMPLE}.` });
  }
  const { gateway, web, mqtt } = parsed.data;
  const password = mqtt?.passwordEnv ? env[mqtt.passwordEnv] : undefined;
  if (mqtt?.passwordEnv && !password)
    throw new HomunculusError('config', `agent.mqtt.passwordEnv names ${mqtt.passwordEnv}, which is not set.`, {
      hint: `Export ${mqtt.passwordEnv} before starting the agent, or remove passwordEnv.`,
    });
  return {
    gateway: { port: gateway.port, rate: { perMinute: gateway.ratePerMinute, burst: gateway.burst } },
    web: { allow: web.allow, maxBytes: web.maxBytes, timeoutMs: web.timeoutSeconds * 1000, maxRedirects: web.maxRedirects },
    ...(mqtt
      ? {
          mqtt: {
            url: mqtt.url,
            ...(mqtt.username ? { username: mqtt.username } : {}),
            ...(password ? { password } : {}),
            ...(mqtt.topics ? { topics: mqtt.topics } : {}),
          },
        }
      : {}),
  };
}
