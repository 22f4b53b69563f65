/**
 * Dashboard benchmark (`npm run bench:dashboard`): a store of 10k instincts, 50k facts and
 * 200k observations, the real `homunculus dashboard` process, Debian's chromium.
 *
 * - Project view: navigation to its first meaningful render (what a session starts with shown).
 * - Neural: the section's button pressed to the graph interactive (canvas drawn, then its
 *   most activated node clicked and its timeline shown).
 * - The API calls behind them, timed from Node with the page's cookie.
 *
 * Targets: 1.5 s and 3 s. The same on a store a tenth the size is the baseline.
 * Usage: node dist/bench/dashboard.js [--runs N] [--scale F]
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { openStore } from '../store/store.js';
import { FULL_SIZE, type SeedSize, scaled, seedDashboardStore } from './dashboard-seed.js';
import { formatTable, median } from './measure.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'bin.js');
const CHROMIUM = '/usr/bin/chromium';
const TARGET_PROJECT_MS = 1_500;
const TARGET_NEURAL_MS = 3_000;
const API_PATHS = ['/api/overview', '/api/projects', '/api/instincts?limit=200', '/api/sessions?limit=50', '/api/neural/view'];

interface Dashboard {
  url: string;
  login: string;
  child: ChildProcessWithoutNullStreams;
}

function startDashboard(home: string): Promise<Dashboard> {
  const env = { ...process.env, HOMUNCULUS_HOME: home, HOME: home, HOMUNCULUS_NO_WARM: '1' };
  const child = spawn(process.execPath, [BIN, 'dashboard', '--no-open', '--port', '0', '--json'], { env });
  let out = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the dashboard printed no login line: ${out}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      const { url, login } = JSON.parse(out.split('\n')[0] as string) as { url: string; login: string };
      done({ url, login, child });
    });
  });
}

const since = (start: number) => performance.now() - start;

async function projectRender(page: Page, url: string): Promise<number> {
  const start = performance.now();
  await page.goto(`${url}/`);
  await page.locator('#injected').waitFor({ timeout: 60_000 });
  return since(start);
}

/** Whether `locator` appears within `ms`. */
const appears = (locator: Locator, ms: number) =>
  locator.waitFor({ timeout: ms }).then(
    () => true,
    () => false,
  );

/** From the Neural button (the default view loaded) to a click on the canvas answered with the node's timeline. */
async function neuralInteractive(page: Page, url: string): Promise<{ drawn: number; interactive: number; clicks: number }> {
  await page.goto(`${url}/`);
  await page.locator('#injected').waitFor({ timeout: 60_000 });
  const start = performance.now();
  await page.getByRole('button', { name: 'Neural' }).click();
  const canvas = page.locator('#neural-canvas[data-drawn]');
  await canvas.waitFor({ timeout: 60_000 });
  const drawn = since(start);
  // The layout may still be settling: a click that lands beside the moving node is tried again.
  let clicks = 0;
  for (let answered = false; !answered && clicks < 20;) {
    const [id, x, y] = ((await canvas.getAttribute('data-first')) ?? '').split(' ').map(Number);
    await canvas.click({ position: { x: x as number, y: y as number } });
    clicks++;
    answered = await appears(page.locator(`#neural-list button[data-entity="${id}"][aria-pressed="true"]`), 200);
  }
  await page.locator('#neural-detail-count').waitFor({ timeout: 60_000 });
  return { drawn, interactive: since(start), clicks };
}

async function apiTimes(context: BrowserContext, url: string): Promise<Map<string, number[]>> {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const times = new Map<string, number[]>();
  const projects = (await (await fetch(`${url}/api/projects`, { headers: { Cookie: cookie } })).json()) as {
    projects: { project: string }[];
  };
  const paths = [...API_PATHS, `/api/projects/${projects.projects[0]?.project}`];
  for (let run = 0; run < 3; run++)
    for (const path of paths) {
      const start = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      times.set(path, [...(times.get(path) ?? []), since(start)]);
    }
  return times;
}

interface Figures {
  project: number[];
  drawn: number[];
  neural: number[];
  clicks: number[];
  api: Map<string, number[]>;
  seedMs: number;
}

async function measure(browser: Browser, size: SeedSize, runs: number): Promise<Figures> {
  const home = mkdtempSync(join(tmpdir(), 'homunculus-bench-dash-'));
  const seeding = performance.now();
  const store = openStore({ home });
  seedDashboardStore(store, size);
  store.close();
  const seedMs = since(seeding);
  const dash = await startDashboard(home);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const first = await context.newPage();
    await first.goto(dash.login);
    await first.locator('#injected').waitFor({ timeout: 60_000 });
    await first.close();
    const figures: Figures = { project: [], drawn: [], neural: [], clicks: [], api: new Map(), seedMs };
    for (let run = 0; run < runs; run++) {
      const page = await context.newPage();
      figures.project.push(await projectRender(page, dash.url));
      const neural = await neuralInteractive(page, dash.url);
      figures.drawn.push(neural.drawn);
      figures.neural.push(neural.interactive);
      figures.clicks.push(neural.clicks);
      await page.close();
    }
    figures.api = await apiTimes(context, dash.url);
    return figures;
  } finally {
    await context.close();
    dash.child.kill('SIGINT');
    rmSync(home, { recursive: true, force: true });
  }
}

function report(full: Figures, base: Figures, size: SeedSize, runs: number): string {
  const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)}x`;
  const row = (label: string, a: number[], b: number[], target: string) => [label, median(a), target, median(b), ratio(a, b)];
  const lines = [
    `Dashboard at ${size.instincts} instincts, ${size.facts} facts, ${size.observations} observations; ${runs} runs; ${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
    `Seeding took ${(full.seedMs / 1000).toFixed(1)} s (baseline ${(base.seedMs / 1000).toFixed(1)} s).`,
    '',
    formatTable(
      ['median ms', 'full', 'target', 'baseline (1/10)', 'full / baseline'],
      [
        row('Project: first meaningful render', full.project, base.project, String(TARGET_PROJECT_MS)),
        row('Neural: canvas drawn', full.drawn, base.drawn, '-'),
        row('Neural: interactive (node click answered)', full.neural, base.neural, String(TARGET_NEURAL_MS)),
        ['clicks until one hit the settling node (median)', median(full.clicks), '-', median(base.clicks), '-'],
      ],
    ),
    '',
    formatTable(
      ['API (median of 3, ms)', 'full', 'baseline (1/10)', 'full / baseline'],
      [...full.api.entries()].map(([path, t]) => {
        const b = base.api.get(path) ?? [];
        return [path.replace(/\/api\/projects\/[0-9a-f]+$/, '/api/projects/:project'), median(t), median(b), ratio(t, b)];
      }),
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string, fallback: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const runs = value('--runs', 3);
  const size = scaled(FULL_SIZE, value('--scale', 1));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const base = await measure(browser, scaled(size, 0.1), runs);
    const full = await measure(browser, size, runs);
    console.log(report(full, base, size, runs));
  } finally {
    await browser.close();
  }
}

await main();
