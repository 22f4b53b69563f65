/** Who "I" is in this store: config.json's `user` section (checked), with the roles that always count. */
import { z } from 'zod';
import { loadConfig } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';
import { SELF } from '../search/speakers.js';

const userSection = z.object({ names: z.array(z.string().trim().min(1).max(200)).max(20).optional() }).optional();

/** The speaker names of the store's owner ("what did I say"): config.json's user.names, with the roles a conversation gives them. */
export function selfNames(configPath: string): string[] {
  return userNames(loadConfig(configPath));
}

/** config.json's `user` section, checked: the names it gives the owner and the roles that always count. */
export function userNames(config: Record<string, unknown>): string[] {
  const parsed = userSection.safeParse(config.user);
  if (!parsed.success)
    throw new HomunculusError('config', `config.json "user" is not valid: ${parsed.error.issues[0]?.message ?? 'bad value'}.`, {
      hint: 'Write it as {"user": {"names": ["Ada", "Ada Lovelace"]}}: the names your memories give you as speaker.',
    });
  return [...(parsed.data?.names ?? []), ...SELF];
}
