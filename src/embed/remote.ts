/**
 * Remote embedding endpoints: any OpenAI-compatible server (POST {url}/embeddings) and
 * Ollama's native API (POST {url}/api/embed). Only used when the user configures one.
 */
import { HomunculusError } from '../core/errors.js';
import { type EmbeddingProvider, clipForEmbedding } from './provider.js';
import { l2normalize } from './vector-math.js';

interface RemoteOptions {
  kind: 'openai' | 'ollama';
  url: string;
  model: string;
  apiKey?: string;
  /** Known dimensions; otherwise one probe request finds them. */
  dims?: number;
  batchSize?: number;
  timeoutMs?: number;
}

async function post(url: string, body: unknown, apiKey: string | undefined, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new HomunculusError('embedding_endpoint', `Cannot reach the embedding endpoint ${url}: ${(err as Error).message}`, {
      hint: 'Check that the server runs and the "embedding.url" in config.json is right.',
      cause: err,
    });
  }
  const text = await res.text();
  if (!res.ok) {
    throw new HomunculusError('embedding_endpoint', `The embedding endpoint ${url} answered ${res.status}: ${text.slice(0, 300)}`, {
      hint:
        res.status === 401 || res.status === 403
          ? 'Check the API key (embedding.apiKeyEnv names the variable holding it).'
          : 'Check the model name and the server log.',
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HomunculusError('embedding_endpoint', `The embedding endpoint ${url} did not return JSON.`, {
      hint: 'Check that the URL points at the embeddings API.',
    });
  }
}

function parseVectors(kind: RemoteOptions['kind'], json: unknown, expected: number): number[][] {
  let vectors: unknown;
  if (kind === 'openai') {
    const data = (json as { data?: { embedding?: unknown; index?: number }[] }).data;
    if (Array.isArray(data)) vectors = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding);
  } else {
    vectors = (json as { embeddings?: unknown }).embeddings;
  }
  if (
    !Array.isArray(vectors) ||
    vectors.length !== expected ||
    !vectors.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))
  ) {
    throw new HomunculusError('embedding_endpoint', `The embedding endpoint returned an unexpected body (wanted ${expected} vectors).`, {
      hint: 'Check that the server speaks the OpenAI /embeddings or Ollama /api/embed format.',
    });
  }
  return vectors as number[][];
}

export async function remoteProvider(options: RemoteOptions): Promise<EmbeddingProvider> {
  const base = options.url.replace(/\/+$/, '');
  const endpoint = options.kind === 'openai' ? `${base}/embeddings` : `${base}/api/embed`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const call = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const json = await post(endpoint, { model: options.model, input: texts.map(clipForEmbedding) }, options.apiKey, timeoutMs);
    return parseVectors(options.kind, json, texts.length).map((v) => l2normalize(v));
  };
  const dims = options.dims ?? (await call(['dimension probe']))[0]?.length ?? 0;
  return {
    provider: options.kind,
    model: options.model,
    dims,
    batchSize: options.batchSize ?? 64,
    async embed(texts) {
      if (texts.length === 0) return [];
      const out = await call(texts);
      for (const v of out) {
        if (v.length !== dims) {
          throw new HomunculusError('embedding_endpoint', `The endpoint returned ${v.length}-d vectors, expected ${dims}.`, {
            hint: 'The model behind the endpoint changed: set "embedding.dims" or run `homunculus embed` to re-embed.',
          });
        }
      }
      return out;
    },
  };
}
