/**
 * Asking Codex itself which hooks it will run: `codex app-server` speaks JSON-RPC, one
 * message a line, on stdio; after `initialize`, `hooks/list` returns every hook it found with
 * its trust status (trusted, untrusted, modified, managed) and whether it is enabled.
 */
import { spawn } from 'node:child_process';
import { type Obj, isObj } from '../../core/fields.js';

export interface CodexHook {
  key: string;
  event: string;
  trustStatus: string;
  enabled: boolean;
}

const LIST_TIMEOUT_MS = 15_000;

function hooksOf(result: unknown): CodexHook[] {
  const data = isObj(result) && Array.isArray(result.data) ? result.data : [];
  return data.flatMap((entry: unknown) =>
    isObj(entry) && Array.isArray(entry.hooks)
      ? entry.hooks.filter(isObj).map((h: Obj) => ({
          key: String(h.key ?? ''),
          event: String(h.eventName ?? ''),
          trustStatus: String(h.trustStatus ?? ''),
          enabled: h.enabled !== false,
        }))
      : [],
  );
}

/** Codex's hooks for `cwd`, or undefined when the app server does not answer in time. */
export function listCodexHooks(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CodexHook[] | undefined> {
  return new Promise((done) => {
    let settled = false;
    const child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const finish = (value: CodexHook[] | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill();
      done(value);
    };
    const timer = setTimeout(() => finish(undefined), LIST_TIMEOUT_MS);
    const send = (message: Obj): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (!isObj(message)) continue;
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message.id === 2) finish(message.error === undefined ? hooksOf(message.result) : undefined);
      }
    });
    child.on('error', () => finish(undefined));
    child.on('close', () => finish(undefined));
    child.stdin.on('error', () => finish(undefined));
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'homunculus', version: '1' } } });
  });
}
