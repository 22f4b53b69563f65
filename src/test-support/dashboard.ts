/** The dashboard as its browser tests use it: the CLI started on a free port, chromium, screenshots. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { BIN, REPO_ROOT, cliEnv } from './cli.js';
import { backdrop, contrastRatio, parseColour } from './contrast.js';
import { CHROMIUM } from './shared.js';

export interface RunningDashboard {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The one-time login link the CLI printed. */
  login: string;
  /** The owner-only file the browser is opened on, which goes on to the login link. */
  page: string;
  out: () => string;
  /** Ctrl-C, and the exit code. */
  stop: () => Promise<number | null>;
}

export const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null) done(child.exitCode);
    else child.on('exit', (code) => done(code));
  });

/** `homunculus dashboard --json` started on `home` (with `env` added to its environment), with the line it printed. */
export async function startDashboardCli(home: string, env: Record<string, string> = {}): Promise<RunningDashboard> {
  const child = spawn(process.execPath, [BIN, 'dashboard', '--no-open', '--port', '0', '--json'], { env: cliEnv(home, env) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const first = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no login line: ${out}`)), 15_000);
    child.stdout.on('data', () => out.includes('\n') && (clearTimeout(timer), done(out.split('\n')[0] as string)));
  });
  const { url, login, page } = JSON.parse(first) as { url: string; login: string; page: string };
  const stop = () => {
    const code = exited(child);
    child.kill('SIGINT');
    return code;
  };
  return { child, url, login, page, out: () => out, stop };
}

/** Debian's chromium, headless, with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * The dashboard of `home` open in chromium, signed in and loaded (`ready` is shown: by default what
 * a session starts with), for `use`; everything is closed afterwards, whatever `use` does.
 */
export async function withDashboardPage(
  home: string,
  viewport: { width: number; height: number } | undefined,
  use: (page: Page) => Promise<void>,
  ready = '#injected',
): Promise<void> {
  const { login, stop } = await startDashboardCli(home);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage(viewport ? { viewport } : {});
    await page.goto(login);
    await page.locator(ready).waitFor();
    await use(page);
  } finally {
    await browser.close();
    await stop();
  }
}

/** Where screenshots of every section are kept as test artifacts. */
export function screenshotPath(name: string): string {
  const dir = join(REPO_ROOT, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

interface TextSample {
  text: string;
  colour: string;
  layers: string[];
  large: boolean;
}

/**
 * Probes run in the page. They are plain script text: this program is typed for Node, not
 * the DOM, and DevTools evaluation is not subject to the page's CSP.
 */
const TEXT_SAMPLES = `(() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    if (!own || el.closest('[disabled], [aria-hidden="true"]')) continue;
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
    const layers = [];
    for (let at = el; at; at = at.parentElement) layers.push(getComputedStyle(at).backgroundColor);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    // SVG text is painted by its fill.
    out.push({ text: own.slice(0, 60), colour: el instanceof SVGElement && style.fill.startsWith('rgb') ? style.fill : style.color, layers, large: size >= 24 || (bold && size >= 18.66) });
  }
  return out;
})()`;

/** Every visible text in the page below WCAG contrast (4.5:1, 3:1 when large), described. */
export async function unreadableText(page: Page): Promise<string[]> {
  return (await page.evaluate<TextSample[]>(TEXT_SAMPLES))
    .map((s) => ({ s, ratio: contrastRatio(parseColour(s.colour), backdrop(s.layers)) }))
    .filter(({ s, ratio }) => ratio < (s.large ? 3 : 4.5))
    .map(({ s, ratio }) => `"${s.text}" ${s.colour} at ${ratio.toFixed(2)}:1`);
}

/** The headers the signed-in page sends with each API request (its cookie goes along by itself): its key, from its origin's storage. */
export async function pageAuth(page: Page, url: string): Promise<Record<string, string>> {
  const state = await page.context().storageState();
  const key = state.origins.find((o) => o.origin === url)?.localStorage.find((i) => i.name === 'homunculus-key')?.value ?? '';
  return { 'X-Homunculus-Key': key };
}
