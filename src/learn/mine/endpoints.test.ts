import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { endpointOf, endpointText, mineEndpoints, withEndpoints } from './endpoints.js';

describe('gh api endpoints', () => {
  it('reads method, path with numbers as {n}, field names and the resource, whatever the flags', () => {
    const reply = endpointOf("gh api -X POST repos/acme/shop/pulls/143/comments/2761673774/replies -f body='Fixed in abc123'");
    expect(reply).toEqual({
      method: 'POST',
      path: 'repos/acme/shop/pulls/{n}/comments/{n}/replies',
      fields: ['body'],
      family: 'repos/acme/shop/pulls',
    });
    expect(endpointText(reply!)).toBe('gh api -X POST repos/acme/shop/pulls/{n}/comments/{n}/replies -f body=…');
    const list = endpointOf("gh api 'repos/acme/shop/pulls/143/comments?per_page=100' --paginate --jq '.[] | .body'");
    expect(list).toMatchObject({ method: 'GET', path: 'repos/acme/shop/pulls/{n}/comments' });
    // Fields without a method: gh sends a POST.
    expect(endpointOf('gh api graphql -f query=x')).toBeUndefined();
    expect(endpointOf('gh api /user/repos -f name=x')?.method).toBe('POST');
    expect(endpointOf('gh pr view 12')).toBeUndefined();
  });

  it('groups a session by resource, keeps only calls that passed, and names the endpoints most sessions used', () => {
    const found = mineEndpoints(
      steps([
        { bash: 'gh api repos/acme/shop/pulls/9/comments --paginate' },
        { bash: 'gh api repos/acme/shop/pulls/comments/5/replies -f body=x', error: 'exit 1: gh: Not Found (HTTP 404)' },
        { bash: 'gh api -X POST repos/acme/shop/pulls/9/comments/5/replies -f body=x' },
      ]),
    );
    expect(found.map((c) => c.key)).toEqual(['pref:demo/api=repos-acme-shop-pulls']);
    expect(found[0]?.evidence[0]).toBe(
      'gh api repos/acme/shop/pulls/{n}/comments; gh api -X POST repos/acme/shop/pulls/{n}/comments/{n}/replies -f body=…',
    );
    const composed = withEndpoints(found[0]!, [
      '2026-02-01: gh api a/b/c',
      '2026-02-02: gh api x/y; gh api a/b/c',
      '2026-02-03: gh api a/b/c',
    ]);
    expect(composed.action).toMatch(/^Call `gh api a\/b\/c`, `gh api x\/y`/);
  });
});
