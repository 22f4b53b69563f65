import { describe, expect, it } from 'vitest';
import { fileProblem, toolProblem } from './gate.js';

describe('graph gate', () => {
  it('refuses tools named by punctuation, command fragments or generic words', () => {
    for (const name of ['|', '+%Y-%m-%dT%H:%M:%SZ)', 'missing_blobs.txt)', 'repo', 'pr', 'show'])
      expect(toolProblem(name), name).toBeDefined();
    for (const name of ['golangci-lint', 'gh', 'mise', 'linear-server MCP server', 'go']) expect(toolProblem(name), name).toBeUndefined();
  });

  it('refuses temporary files and the agent plan files', () => {
    for (const path of ['/tmp/entire-large-repo/a.go', '/var/folders/gz/T/tmp.x/log', '/Users/a/.claude/plans/owl.md', '/private/tmp/x'])
      expect(fileProblem(path), path).toBeDefined();
    expect(fileProblem('cmd/entire/cli/strategy/auto_commit.go')).toBeUndefined();
  });
});
