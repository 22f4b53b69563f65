/**
 * Builds a tiny sentence-encoder folder for tests: a word-level tokenizer and an ONNX
 * graph that looks up one embedding row per token (Gather), so mean pooling yields a
 * deterministic sentence vector. Written with a hand-rolled protobuf encoder, no hub.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onnxProvider } from '../embed/onnx.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { TEST_RUNTIME } from './shared.js';

// --- minimal protobuf writer -------------------------------------------------------
const varint = (n: number | bigint): number[] => {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
};
const key = (field: number, wire: number): number[] => varint((field << 3) | wire);
const int = (field: number, n: number): number[] => [...key(field, 0), ...varint(n)];
const bytes = (field: number, data: Uint8Array | number[]): number[] => [...key(field, 2), ...varint(data.length), ...data];
const str = (field: number, s: string): number[] => bytes(field, [...Buffer.from(s, 'utf8')]);
const msg = (field: number, parts: number[]): number[] => bytes(field, parts);

const INT64 = 7;
const FLOAT = 1;

function valueInfo(field: number, name: string, elemType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => msg(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  const tensorType = [...int(1, elemType), ...msg(2, shape)];
  return msg(field, [...str(1, name), ...msg(2, msg(1, tensorType))]);
}

interface TinyModel {
  path: string;
  vocab: string[];
  dims: number;
}

/** Writes the model folder under `dir/name` and returns its path. Words sharing a "topic" get similar vectors. */
export function writeTinyOnnxModel(dir: string, name = 'tiny-encoder', dims = 8): TinyModel {
  const topics: Record<string, number> = {
    cat: 0,
    kitten: 0,
    dog: 0,
    puppy: 0,
    pet: 0,
    stock: 1,
    market: 1,
    shares: 1,
    price: 1,
    rain: 2,
    weather: 2,
    storm: 2,
    sunny: 2,
  };
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', ...Object.keys(topics), 'the', 'a', 'is', 'on'];
  const weights = new Float32Array(vocab.length * dims);
  vocab.forEach((word, row) => {
    const topic = topics[word];
    for (let j = 0; j < dims; j++) {
      // A strong topic axis plus a small word-specific component.
      const base = topic !== undefined && j === topic ? 1 : 0;
      weights[row * dims + j] = base + 0.05 * Math.sin(row * 7 + j * 3);
    }
  });
  const initializer = msg(5, [
    ...int(1, vocab.length),
    ...int(1, dims),
    ...int(2, FLOAT),
    ...str(8, 'embeddings'),
    ...bytes(9, new Uint8Array(weights.buffer)),
  ]);
  const node = msg(1, [
    ...str(1, 'embeddings'),
    ...str(1, 'input_ids'),
    ...str(2, 'last_hidden_state'),
    ...str(3, 'lookup'),
    ...str(4, 'Gather'),
    ...msg(5, [...str(1, 'axis'), ...int(3, 0), ...int(20, 2)]),
  ]);
  const graph = [
    ...node,
    ...str(2, 'tiny'),
    ...initializer,
    ...valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    ...valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence']),
    ...valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', dims]),
  ];
  const model = [...int(1, 8), ...str(2, 'homunculus-test'), ...msg(7, graph), ...msg(8, [...str(1, ''), ...int(2, 17)])];

  const path = join(dir, name);
  mkdirSync(join(path, 'onnx'), { recursive: true });
  writeFileSync(join(path, 'onnx', 'model.onnx'), Buffer.from(model));
  writeFileSync(join(path, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: dims, vocab_size: vocab.length }));
  writeFileSync(
    join(path, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: vocab
        .slice(0, 4)
        .map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: null,
      decoder: null,
      model: { type: 'WordLevel', vocab: Object.fromEntries(vocab.map((w, i) => [w, i])), unk_token: '[UNK]' },
    }),
  );
  writeFileSync(
    join(path, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', pad_token: '[PAD]', unk_token: '[UNK]', model_max_length: 128 }),
  );
  return { path, vocab, dims };
}

/** A real transformers.js provider over a freshly built tiny model (dims and name vary, so fingerprints differ). */
export async function tinyOnnxProvider(dir: string, name = 'tiny-encoder', dims = 8): Promise<EmbeddingProvider> {
  const model = writeTinyOnnxModel(dir, name, dims);
  return onnxProvider({ path: model.path, batchSize: 4, runtimeDir: TEST_RUNTIME });
}
