/**
 * A force layout for the knowledge graph, after d3-force (link, many-body with Barnes-Hut,
 * centering), in typed arrays so 2,000 nodes and 10,000 links tick in a few milliseconds.
 * Written here rather than added as a dependency: d3-force is not installed, and this is
 * the part of it the view needs.
 */

const THETA2 = 0.81;
const CHARGE = -60;
const LINK_DISTANCE = 40;
const GRAVITY = 0.04;
const VELOCITY_KEEP = 0.6;
const ALPHA_MIN = 0.001;
const ALPHA_DECAY = 1 - ALPHA_MIN ** (1 / 300);

export interface Layout {
  readonly x: Float64Array;
  readonly y: Float64Array;
  alpha: number;
  /** One step of the simulation; false once it has cooled down. */
  tick(): boolean;
}

interface Quad {
  x0: number;
  y0: number;
  size: number;
  mass: number;
  mx: number;
  my: number;
  bodies: number[] | null;
  kids: (Quad | null)[] | null;
}

const MAX_DEPTH = 24;

function quadtree(x: Float64Array, y: Float64Array): Quad {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < x.length; i++) {
    x0 = Math.min(x0, x[i] as number);
    y0 = Math.min(y0, y[i] as number);
    x1 = Math.max(x1, x[i] as number);
    y1 = Math.max(y1, y[i] as number);
  }
  const root: Quad = { x0, y0, size: Math.max(x1 - x0, y1 - y0, 1), mass: 0, mx: 0, my: 0, bodies: [], kids: null };
  for (let i = 0; i < x.length; i++) insert(root, i, x[i] as number, y[i] as number, 0);
  return root;
}

function insert(q: Quad, i: number, px: number, py: number, depth: number): void {
  // Centre of mass as a running mean (every body weighs the same).
  q.mx = (q.mx * q.mass + px) / (q.mass + 1);
  q.my = (q.my * q.mass + py) / (q.mass + 1);
  q.mass += 1;
  if (q.bodies) {
    q.bodies.push(i);
    if (q.bodies.length < 2 || depth >= MAX_DEPTH) return;
    const bodies = q.bodies;
    q.bodies = null;
    q.kids = [null, null, null, null];
    for (const b of bodies) place(q, b, depth);
    return;
  }
  place(q, i, depth, px, py);
}

/** Into the child quadrant holding the point (`px`, `py`, read from the body when not given). */
function place(q: Quad, i: number, depth: number, px?: number, py?: number): void {
  const half = q.size / 2;
  const bx = px ?? ((pointX as Float64Array)[i] as number);
  const by = py ?? ((pointY as Float64Array)[i] as number);
  const east = bx >= q.x0 + half ? 1 : 0;
  const south = by >= q.y0 + half ? 1 : 0;
  const k = east + south * 2;
  const kids = q.kids as (Quad | null)[];
  let kid = kids[k];
  if (!kid) {
    kid = { x0: q.x0 + east * half, y0: q.y0 + south * half, size: half, mass: 0, mx: 0, my: 0, bodies: [], kids: null };
    kids[k] = kid;
  }
  insert(kid, i, bx, by, depth + 1);
}

// The positions being inserted, read when a leaf splits (set before each tree is built).
let pointX: Float64Array | undefined;
let pointY: Float64Array | undefined;

/** A tiny deterministic nudge for coincident points, so they separate. */
const jiggle = (i: number) => ((i * 9301 + 49297) % 233280) / 233280 - 0.5;

function repel(root: Quad, x: Float64Array, y: Float64Array, vx: Float64Array, vy: Float64Array, alpha: number): void {
  const stack: Quad[] = [];
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] as number;
    const yi = y[i] as number;
    stack.push(root);
    while (stack.length) {
      const q = stack.pop() as Quad;
      let dx = q.mx - xi;
      let dy = q.my - yi;
      let d2 = dx * dx + dy * dy;
      if (q.kids && (q.size * q.size) / d2 >= THETA2) {
        for (const kid of q.kids) if (kid) stack.push(kid);
        continue;
      }
      let mass = q.mass;
      if (q.bodies) {
        if (q.bodies.length === 1 && q.bodies[0] === i) continue;
        mass -= q.bodies.includes(i) ? 1 : 0;
        if (mass === 0) continue;
      }
      if (d2 === 0) {
        dx = jiggle(i);
        dy = jiggle(i + 1);
        d2 = dx * dx + dy * dy;
      }
      if (d2 < 1) d2 = Math.sqrt(d2);
      const w = (CHARGE * mass * alpha) / d2;
      vx[i] = (vx[i] as number) + dx * w;
      vy[i] = (vy[i] as number) + dy * w;
    }
  }
}

export function createLayout(count: number, links: readonly (readonly [number, number])[]): Layout {
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const vx = new Float64Array(count);
  const vy = new Float64Array(count);
  // Phyllotaxis: nodes come most activated first, so those start at the centre.
  for (let i = 0; i < count; i++) {
    const r = 10 * Math.sqrt(0.5 + i);
    const a = i * Math.PI * (3 - Math.sqrt(5));
    x[i] = r * Math.cos(a);
    y[i] = r * Math.sin(a);
  }
  const edges = links.filter(([s, t]) => s !== t && s < count && t < count);
  const degree = new Uint32Array(count);
  for (const [s, t] of edges) {
    degree[s] = (degree[s] as number) + 1;
    degree[t] = (degree[t] as number) + 1;
  }
  const layout: Layout = {
    x,
    y,
    alpha: 1,
    tick() {
      if (layout.alpha < ALPHA_MIN) return false;
      const alpha = (layout.alpha += (0 - layout.alpha) * ALPHA_DECAY);
      for (const [s, t] of edges) {
        let dx = (x[t] as number) + (vx[t] as number) - (x[s] as number) - (vx[s] as number);
        let dy = (y[t] as number) + (vy[t] as number) - (y[s] as number) - (vy[s] as number);
        const l = Math.sqrt(dx * dx + dy * dy) || 1e-6;
        const ds = degree[s] as number;
        const dt = degree[t] as number;
        const k = ((l - LINK_DISTANCE) / l) * alpha * (1 / Math.min(ds, dt));
        dx *= k;
        dy *= k;
        const bias = ds / (ds + dt);
        vx[t] = (vx[t] as number) - dx * bias;
        vy[t] = (vy[t] as number) - dy * bias;
        vx[s] = (vx[s] as number) + dx * (1 - bias);
        vy[s] = (vy[s] as number) + dy * (1 - bias);
      }
      pointX = x;
      pointY = y;
      if (count > 1) repel(quadtree(x, y), x, y, vx, vy, alpha);
      for (let i = 0; i < count; i++) {
        vx[i] = ((vx[i] as number) - (x[i] as number) * GRAVITY * alpha) * VELOCITY_KEEP;
        vy[i] = ((vy[i] as number) - (y[i] as number) * GRAVITY * alpha) * VELOCITY_KEEP;
        x[i] = (x[i] as number) + (vx[i] as number);
        y[i] = (y[i] as number) + (vy[i] as number);
      }
      return true;
    },
  };
  return layout;
}
