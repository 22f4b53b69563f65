/**
 * The `claude -p` provider: the prompt goes in on stdin, `--output-format json` brings back
 * the answer and its token usage. HOMUNCULUS_OBSERVER=1 keeps the capture hooks of that
 * nested session from observing it.
 */
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { HomunculusError } from '../core/errors.js';
import type { StructuredRequest, StructuredResult } from './provider.js';

const cliOutput = z.object({
  result: z.string(),
  is_error: z.boolean().optional(),
  usage: z
    .object({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
    })
    .optional(),
});

/** The JSON object inside a model's text answer (fenced or bare). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new HomunculusError('llm_output', 'The model answered without a JSON object.');
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch (err) {
    throw new HomunculusError('llm_output', `The model's JSON does not parse: ${(err as Error).message}`);
  }
}

function parseStructured<T>(text: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(extractJson(text));
  if (!parsed.success) {
    throw new HomunculusError(
      'llm_output',
      `The model's answer does not match the schema: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')} ${i.message}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
}

export function runClaudeCli<T>(
  command: string,
  model: string | undefined,
  request: StructuredRequest<T>,
  env: NodeJS.ProcessEnv,
): Promise<StructuredResult<T>> {
  const schema = JSON.stringify(z.toJSONSchema(request.schema));
  const input = `${request.system}\n\n${request.prompt}\n\nAnswer with one JSON object only, matching this JSON Schema:\n${schema}\n`;
  const args = ['-p', '--output-format', 'json', '--max-turns', '1', ...(model && model !== 'default' ? ['--model', model] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...env, HOMUNCULUS_OBSERVER: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new HomunculusError('llm_timeout', `${command} -p did not answer within ${request.timeoutMs} ms.`)));
    }, request.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', (err) =>
      finish(() =>
        reject(
          new HomunculusError('llm_cli', `Cannot run ${command}: ${err.message}`, {
            hint: 'Install Claude Code, or set llm.command to its path.',
          }),
        ),
      ),
    );
    child.on('close', (code) => {
      finish(() => {
        try {
          if (code !== 0) throw new HomunculusError('llm_cli', `${command} -p exited with code ${code}: ${stderr.trim().slice(0, 300)}`);
          let raw: unknown;
          try {
            raw = JSON.parse(stdout.trim());
          } catch {
            throw new HomunculusError('llm_cli', `${command} -p --output-format json printed something that is not JSON.`);
          }
          const out = cliOutput.safeParse(raw);
          if (!out.success) throw new HomunculusError('llm_cli', `Unexpected output from ${command} -p --output-format json.`);
          if (out.data.is_error) throw new HomunculusError('llm_cli', `${command} -p reported an error: ${out.data.result.slice(0, 300)}`);
          const u = out.data.usage ?? {};
          resolve({
            object: parseStructured(out.data.result, request.schema),
            usage: {
              inputTokens: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
              outputTokens: u.output_tokens ?? 0,
            },
          });
        } catch (err) {
          reject(err);
        }
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
