/** Drawing the graph on a canvas, and finding what a point on it hits. Positions are graph units; the view maps them to CSS pixels. */
import type { NeuralLink, NeuralNode } from './api-neural.js';

/** One colour per entity type (the legend names each, so colour is never the only cue). */
export const TYPE_COLOURS: Record<string, string> = {
  project: '#0f766e',
  tool: '#1d4ed8',
  error_pattern: '#b91c1c',
  preference: '#a16207',
  concept: '#7c3aed',
  person: '#be185d',
  file: '#4b5563',
  library: '#15803d',
  pattern: '#0369a1',
  decision: '#c2410c',
};
const RECENT_RING = '#92400e';
const SELECTED = '#111827';

/** The seed's size rule: max(6, min(24, degree × 3 + 6)). */
export const radius = (degree: number): number => Math.max(6, Math.min(24, degree * 3 + 6));

export interface View {
  k: number;
  tx: number;
  ty: number;
}

export interface Scene {
  nodes: readonly NeuralNode[];
  links: readonly NeuralLink[];
  /** Node index of each link's ends. */
  ends: readonly (readonly [number, number])[];
  x: Float64Array;
  y: Float64Array;
}

export interface Marks {
  hover: number;
  selectedNode: number;
  selectedLink: number;
}

/** The view that shows every node with `pad` pixels to spare. */
export function fit(scene: Scene, width: number, height: number, pad = 60): View {
  if (scene.nodes.length === 0) return { k: 1, tx: width / 2, ty: height / 2 };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  scene.nodes.forEach((n, i) => {
    const r = radius(n.degree);
    x0 = Math.min(x0, (scene.x[i] as number) - r);
    y0 = Math.min(y0, (scene.y[i] as number) - r);
    x1 = Math.max(x1, (scene.x[i] as number) + r);
    y1 = Math.max(y1, (scene.y[i] as number) + r);
  });
  const k = Math.min(2, Math.max(0.02, Math.min((width - 2 * pad) / (x1 - x0 || 1), (height - 2 * pad) / (y1 - y0 || 1))));
  return { k, tx: width / 2 - ((x0 + x1) / 2) * k, ty: height / 2 - ((y0 + y1) / 2) * k };
}

export const toScreen = (v: View, x: number, y: number): [number, number] => [x * v.k + v.tx, y * v.k + v.ty];

/** Labels: the best connected (degree ≥ 3) among the first nodes, and whatever is hovered or chosen. */
const LABELLED = 80;
const SMALL_GRAPH = 30;

function drawLinks(c: CanvasRenderingContext2D, scene: Scene, marks: Marks, k: number): void {
  c.lineWidth = 1 / k;
  c.strokeStyle = 'rgba(82, 82, 91, 0.35)';
  c.beginPath();
  for (const [s, t] of scene.ends) {
    c.moveTo(scene.x[s] as number, scene.y[s] as number);
    c.lineTo(scene.x[t] as number, scene.y[t] as number);
  }
  c.stroke();
  const focus = marks.selectedNode >= 0 ? marks.selectedNode : marks.hover;
  c.lineWidth = 2 / k;
  c.strokeStyle = SELECTED;
  c.beginPath();
  scene.ends.forEach(([s, t], i) => {
    if (i !== marks.selectedLink && s !== focus && t !== focus) return;
    c.moveTo(scene.x[s] as number, scene.y[s] as number);
    c.lineTo(scene.x[t] as number, scene.y[t] as number);
  });
  c.stroke();
}

function drawNodes(c: CanvasRenderingContext2D, scene: Scene, marks: Marks, k: number): void {
  // One path per colour: 2,000 arcs in 10 fills.
  for (const [type, colour] of Object.entries(TYPE_COLOURS)) {
    c.fillStyle = colour;
    c.beginPath();
    scene.nodes.forEach((n, i) => {
      if (n.type !== type) return;
      const r = radius(n.degree);
      c.moveTo((scene.x[i] as number) + r, scene.y[i] as number);
      c.arc(scene.x[i] as number, scene.y[i] as number, r, 0, 2 * Math.PI);
    });
    c.fill();
  }
  c.lineWidth = 3 / k;
  c.strokeStyle = RECENT_RING;
  c.beginPath();
  scene.nodes.forEach((n, i) => {
    if (!n.recent) return;
    const r = radius(n.degree) + 2 / k;
    c.moveTo((scene.x[i] as number) + r, scene.y[i] as number);
    c.arc(scene.x[i] as number, scene.y[i] as number, r, 0, 2 * Math.PI);
  });
  c.stroke();
  for (const i of [marks.hover, marks.selectedNode]) {
    const n = scene.nodes[i];
    if (!n) continue;
    c.beginPath();
    c.arc(scene.x[i] as number, scene.y[i] as number, radius(n.degree) + 4 / k, 0, 2 * Math.PI);
    c.strokeStyle = SELECTED;
    c.stroke();
  }
}

function drawLabels(c: CanvasRenderingContext2D, scene: Scene, marks: Marks, view: View): void {
  c.font = '12px system-ui, sans-serif';
  c.textBaseline = 'middle';
  c.lineJoin = 'round';
  // A label that would cover another is left out: a few readable names beat a blur.
  const taken: [number, number, number, number][] = [];
  const label = (i: number, force = false) => {
    const n = scene.nodes[i];
    if (!n) return;
    const [sx, sy] = toScreen(view, scene.x[i] as number, scene.y[i] as number);
    const tx = sx + radius(n.degree) * view.k + 4;
    const box: [number, number, number, number] = [tx, sy - 8, tx + c.measureText(n.name).width, sy + 8];
    if (!force && taken.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) return;
    taken.push(box);
    c.lineWidth = 3;
    c.strokeStyle = 'rgba(250, 250, 250, 0.9)';
    c.strokeText(n.name, tx, sy);
    c.fillStyle = '#1a1a1a';
    c.fillText(n.name, tx, sy);
  };
  label(marks.selectedNode, true);
  label(marks.hover, true);
  const limit = Math.min(scene.nodes.length, LABELLED);
  // A small graph has room for every name.
  const all = scene.nodes.length <= SMALL_GRAPH;
  for (let i = 0; i < limit; i++) if (all || (scene.nodes[i] as NeuralNode).degree >= 3 || scene.nodes[i]?.match) label(i);
}

export function draw(canvas: HTMLCanvasElement, scene: Scene, view: View, marks: Marks): void {
  const c = canvas.getContext('2d');
  if (!c) return;
  const dpr = window.devicePixelRatio || 1;
  c.setTransform(dpr, 0, 0, dpr, 0, 0);
  c.clearRect(0, 0, canvas.width, canvas.height);
  c.save();
  c.translate(view.tx, view.ty);
  c.scale(view.k, view.k);
  drawLinks(c, scene, marks, view.k);
  drawNodes(c, scene, marks, view.k);
  c.restore();
  drawLabels(c, scene, marks, view);
}

/** The node under a CSS-pixel point (at least 6 px of reach when zoomed far out), or -1. */
export function hitNode(scene: Scene, view: View, px: number, py: number): number {
  const gx = (px - view.tx) / view.k;
  const gy = (py - view.ty) / view.k;
  let best = -1;
  let bestD = Infinity;
  scene.nodes.forEach((n, i) => {
    const reach = Math.max(radius(n.degree), 6 / view.k);
    const d = Math.hypot((scene.x[i] as number) - gx, (scene.y[i] as number) - gy);
    if (d <= reach && d < bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** The link within 4 px of a CSS-pixel point, or -1. */
export function hitLink(scene: Scene, view: View, px: number, py: number): number {
  const gx = (px - view.tx) / view.k;
  const gy = (py - view.ty) / view.k;
  const reach = 4 / view.k;
  let best = -1;
  let bestD = reach;
  scene.ends.forEach(([s, t], i) => {
    const ax = scene.x[s] as number;
    const ay = scene.y[s] as number;
    const dx = (scene.x[t] as number) - ax;
    const dy = (scene.y[t] as number) - ay;
    const len2 = dx * dx + dy * dy || 1;
    const u = Math.max(0, Math.min(1, ((gx - ax) * dx + (gy - ay) * dy) / len2));
    const d = Math.hypot(ax + u * dx - gx, ay + u * dy - gy);
    if (d <= bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** A CSS-pixel point on the first link outside both its nodes, or undefined when they overlap. */
export function linkPoint(scene: Scene, view: View, i: number): [number, number] | undefined {
  const end = scene.ends[i];
  if (!end) return undefined;
  const [s, t] = end;
  const ax = scene.x[s] as number;
  const ay = scene.y[s] as number;
  const len = Math.hypot((scene.x[t] as number) - ax, (scene.y[t] as number) - ay);
  const from = radius((scene.nodes[s] as NeuralNode).degree);
  const to = len - radius((scene.nodes[t] as NeuralNode).degree);
  if (to - from < 8 / view.k) return undefined;
  const u = (from + to) / 2 / len;
  return toScreen(view, ax + u * ((scene.x[t] as number) - ax), ay + u * ((scene.y[t] as number) - ay));
}
