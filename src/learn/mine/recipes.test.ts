import { describe, expect, it } from 'vitest';
import type { Obs } from '../observation.js';
import { mineRecipes, recipeOf } from './recipes.js';

const ran = (input: string, intent = ''): Obs => ({
  id: 1,
  sessionId: 's1',
  at: 1,
  ts: '2026-03-01T10:00:00.000Z',
  event: 'tool',
  project: 'p1',
  projectName: 'app',
  cwd: '/w/app',
  tool: 'Bash',
  intent,
  input,
  files: [],
  outcome: 'ok',
  error: '',
  processed: false,
});

describe('command recipes', () => {
  it('keeps the setting flags and the target, drops what only selects or prints', () => {
    const a = recipeOf('go test -v -tags=integration -count=1 -run "TestX" ./cmd/app/integration_test/...', 'go test');
    const b = recipeOf('go test -tags=integration ./cmd/app/integration_test/ -run TestY', 'go test');
    expect(a?.shape).toBe('go test -tags=integration ./cmd/app/integration_test');
    expect(b?.shape).toBe(a?.shape);
    expect(recipeOf('go build -o /tmp/app ./cmd/app', 'go build')?.shape).toBe('go build -o /tmp/app ./cmd/app');
  });

  it('is no recipe without a setting flag or a target, nor for the project task runner', () => {
    expect(recipeOf('go test -v ./...', 'go test')).toBeUndefined();
    expect(recipeOf('go test -tags=integration', 'go test')).toBeUndefined();
    expect(recipeOf('mise run test -- -tags=x ./a', 'mise run test')).toBeUndefined();
  });

  it('reads as an instruction with the situation the agent described', () => {
    const [c] = mineRecipes([
      ran('cd /w/app && go test -tags=integration ./cmd/app/integration_test/ 2>&1 | tail -5', 'Run the integration tests'),
    ]);
    expect(c?.key).toBe('pref:app/recipe=go-test-tags-integration-cmd-app-integration-test');
    expect(c?.trigger).toContain('"Run the integration tests"');
    expect(c?.action).toMatch(/^Run it as `go test -tags=integration \.\/cmd\/app\/integration_test`/);
  });
});
