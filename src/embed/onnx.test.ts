import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { writeTinyOnnxModel } from '../test-support/tiny-onnx.js';
import { TEST_RUNTIME, hasOnnxRuntime } from '../test-support/shared.js';
import { onnxProvider } from './onnx.js';
import { missingRuntimeError } from './runtime.js';
import { cosine } from './vector-math.js';

const dir = tempDir('homunculus-onnx-');
afterAll(() => dir.cleanup());

describe.runIf(hasOnnxRuntime('the ONNX provider tests'))('transformers.js ONNX provider (local folder, no hub)', () => {
  it('loads a model folder and mean-pools unit vectors', async () => {
    const model = writeTinyOnnxModel(dir.path, 'tiny', 8);
    const provider = await onnxProvider({ path: model.path, runtimeDir: TEST_RUNTIME });
    expect(provider).toMatchObject({ provider: 'onnx', model: 'tiny', dims: 8 });
    const [cat, pet, market] = await provider.embed(['the cat is on a kitten', 'a puppy dog pet', 'stock market price']);
    expect(cosine(cat as Float32Array, pet as Float32Array)).toBeGreaterThan(0.9);
    expect(cosine(cat as Float32Array, market as Float32Array)).toBeLessThan(0.2);
    expect(Math.hypot(...(cat as Float32Array))).toBeCloseTo(1, 5);
    await provider.close?.();
  });

  it('explains a missing folder or a folder without the model file', async () => {
    await expect(onnxProvider({ path: `${dir.path}/nowhere`, runtimeDir: TEST_RUNTIME })).rejects.toThrow(
      /No ONNX model .*config.json is missing/,
    );
    const model = writeTinyOnnxModel(dir.path, 'no-weights', 8);
    await expect(onnxProvider({ path: model.path, dtype: 'q8', runtimeDir: TEST_RUNTIME })).rejects.toThrow(/Cannot load the ONNX model/);
  });
});

describe('transformers.js as an on-demand install', () => {
  it('says how to install it when the runtime folder does not hold it', async () => {
    const model = writeTinyOnnxModel(dir.path, 'needs-runtime', 8);
    const empty = `${dir.path}/empty-runtime`;
    const err = await onnxProvider({ path: model.path, runtimeDir: empty }).then(
      () => undefined,
      (e: unknown) => e as { message: string; hint?: string; code?: string },
    );
    // Skipped when transformers.js sits next to homunculus (then it loads from there).
    if (err === undefined) return;
    expect(err.code).toBe('runtime_missing');
    expect(err.message).toMatch(/needs @huggingface\/transformers/);
    expect(err.hint).toContain('homunculus embed --install-runtime');
    expect(err.hint).toContain(`npm install --prefix "${empty}" @huggingface/transformers@`);
    expect(missingRuntimeError(empty).hint).toBe(err.hint);
  });
});
