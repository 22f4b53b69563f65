/**
 * The dashboard's first page: what the store holds and a way to correct each instinct. Plain
 * HTML, CSS and a script of our own (no CDN, no inline script, so the CSP can forbid both).
 * The login token arrives in the URL's fragment, is posted once for the session cookie and
 * then removed from the address bar and the history entry.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Homunculus</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<header><h1>Homunculus</h1><p id="summary" aria-live="polite">Loading…</p></header>
<main>
<p id="message" role="status" aria-live="polite"></p>
<section aria-labelledby="instincts-title">
<h2 id="instincts-title">What it learned</h2>
<table id="instincts"><thead><tr><th scope="col">When</th><th scope="col">Do</th><th scope="col">Confidence</th><th scope="col">Seen</th><th scope="col">Correct it</th></tr></thead><tbody></tbody></table>
</section>
</main>
</body>
</html>
`;

export const PAGE_CSS = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1a1a1a; background: #fafafa; }
header, main { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 1rem 0 0.25rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; padding: 0.4rem; border-bottom: 1px solid #c8c8c8; }
td.num { font-variant-numeric: tabular-nums; }
button { margin: 0 0.2rem 0.2rem 0; padding: 0.2rem 0.5rem; border: 1px solid #1f4e8c; background: #fff; color: #1f4e8c; border-radius: 3px; cursor: pointer; }
button:focus-visible { outline: 3px solid #1f4e8c; outline-offset: 1px; }
#message { min-height: 1.2rem; color: #7a1f1f; }
`;

export const PAGE_JS = `
const api = async (path, body) => {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
};
const say = (text) => { document.getElementById('message').textContent = text; };

async function signIn() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!token) return;
  history.replaceState(null, '', '/');
  await api('/api/session', { token });
}

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  row.appendChild(td);
}

async function load() {
  const overview = await api('/api/overview');
  document.getElementById('summary').textContent =
    overview.total + ' instincts, ' + overview.convictions.length + ' convictions, ' + overview.observations + ' observations (' + overview.pending_observations + ' pending).';
  const { instincts } = await api('/api/instincts?limit=500');
  const body = document.querySelector('#instincts tbody');
  body.replaceChildren();
  for (const i of instincts) {
    const row = document.createElement('tr');
    row.dataset.pattern = i.pattern;
    cell(row, i.trigger);
    cell(row, i.action);
    cell(row, i.confidence.toFixed(2), 'num');
    cell(row, String(i.evidence), 'num');
    const td = document.createElement('td');
    for (const verdict of ['strong', 'weak', 'wrong']) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = verdict;
      b.setAttribute('aria-label', verdict + ': ' + i.pattern);
      b.addEventListener('click', async () => {
        try {
          const r = await api('/api/instincts/feedback', { pattern: i.pattern, verdict });
          say('Marked ' + verdict + ': confidence ' + r.before.toFixed(2) + ' to ' + r.after.toFixed(2) + '.');
          await load();
        } catch (err) { say(err.message); }
      });
      td.appendChild(b);
    }
    row.appendChild(td);
    body.appendChild(row);
  }
}

signIn().then(load).catch((err) => say(err.message));
`;
