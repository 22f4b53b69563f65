/**
 * The force graph on a canvas: drawn at once in a spiral (most activated at the centre),
 * then redrawn as a worker's layout settles, so the page's thread stays free for clicks. Drag to pan,
 * wheel or +/- to zoom, arrows to pan, 0 to recenter; click a node or an edge.
 * The canvas says in data attributes what it drew and where the first node is, for tests.
 */
import { type KeyboardEvent, type PointerEvent, type WheelEvent, useEffect, useMemo, useRef } from 'react';
import type { NeuralLink, NeuralNode } from './api-neural.js';
import { type Marks, type Scene, type View, draw, fit, hitLink, hitNode, linkPoint, toScreen } from './neural-draw.js';
import { createLayout } from './neural-layout.js';

const HEIGHT = 520;

interface Props {
  nodes: readonly NeuralNode[];
  links: readonly NeuralLink[];
  selectedNode: number | undefined;
  selectedLink: number | undefined;
  onNode(node: NeuralNode): void;
  onLink(link: NeuralLink): void;
  /** Bumped to fit the whole graph in view again. */
  recenter: number;
}

/** The nodes in their starting spiral; the worker moves them. */
function sceneOf(nodes: readonly NeuralNode[], links: readonly NeuralLink[]): Scene {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const kept = links.filter((l) => index.has(l.source) && index.has(l.target));
  const ends = kept.map((l) => [index.get(l.source) as number, index.get(l.target) as number] as const);
  const start = createLayout(nodes.length, []);
  return { nodes, links: kept, ends, x: start.x, y: start.y };
}

export function NeuralGraph({ nodes, links, selectedNode, selectedLink, onNode, onLink, recenter }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scene = useMemo(() => sceneOf(nodes, links), [nodes, links]);
  const view = useRef<View>({ k: 1, tx: 0, ty: 0 });
  // Until the user pans or zooms, the view follows the layout so the whole graph stays in sight.
  const follow = useRef(true);
  const marks = useRef<Marks>({ hover: -1, selectedNode: -1, selectedLink: -1 });
  const drag = useRef<{ x: number; y: number; moved: boolean } | undefined>(undefined);

  const paint = () => {
    const el = canvas.current;
    if (!el) return;
    draw(el, scene, view.current, marks.current);
    const first = scene.nodes[0];
    if (first) {
      const [sx, sy] = toScreen(view.current, scene.x[0] as number, scene.y[0] as number);
      el.dataset.first = `${first.id} ${Math.round(sx)} ${Math.round(sy)}`;
    }
    const onLink = linkPoint(scene, view.current, 0);
    el.dataset.firstLink = onLink ? `${scene.links[0]?.id} ${Math.round(onLink[0])} ${Math.round(onLink[1])}` : '';
    el.dataset.drawn = String(scene.nodes.length);
  };
  const refit = () => {
    const el = canvas.current;
    if (el) view.current = fit(scene, el.clientWidth, el.clientHeight);
  };

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const size = () => {
      const dpr = window.devicePixelRatio || 1;
      el.width = Math.round(el.clientWidth * dpr);
      el.height = Math.round(HEIGHT * dpr);
    };
    size();
    follow.current = true;
    refit();
    el.dataset.state = 'layout';
    paint();
    const worker = new Worker(new URL('./neural-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ x: Float64Array; y: Float64Array; done: boolean }>) => {
      scene.x.set(e.data.x);
      scene.y.set(e.data.y);
      if (follow.current) refit();
      paint();
      if (e.data.done) el.dataset.state = 'settled';
    };
    worker.postMessage({ count: scene.nodes.length, ends: Int32Array.from(scene.ends.flat()) });
    const resized = () => (size(), paint());
    window.addEventListener('resize', resized);
    return () => {
      worker.terminate();
      window.removeEventListener('resize', resized);
    };
  }, [scene]);

  useEffect(() => {
    marks.current.selectedNode = scene.nodes.findIndex((n) => n.id === selectedNode);
    marks.current.selectedLink = scene.links.findIndex((l) => l.id === selectedLink);
    paint();
  }, [scene, selectedNode, selectedLink]);

  useEffect(() => {
    if (recenter !== 0) recenterNow();
  }, [recenter]);

  const recenterNow = () => {
    follow.current = true;
    refit();
    paint();
  };
  const zoom = (factor: number, px: number, py: number) => {
    const v = view.current;
    const k = Math.min(8, Math.max(0.01, v.k * factor));
    view.current = { k, tx: px - ((px - v.tx) * k) / v.k, ty: py - ((py - v.ty) * k) / v.k };
    follow.current = false;
    paint();
  };
  const at = (e: { clientX: number; clientY: number }): [number, number] => {
    const r = (canvas.current as HTMLCanvasElement).getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  const pick = (px: number, py: number) => {
    const n = hitNode(scene, view.current, px, py);
    if (n >= 0) return onNode(scene.nodes[n] as NeuralNode);
    const l = hitLink(scene, view.current, px, py);
    if (l >= 0) onLink(scene.links[l] as NeuralLink);
  };
  const handlers = {
    onPointerDown: (e: PointerEvent<HTMLCanvasElement>) => (drag.current = { x: e.clientX, y: e.clientY, moved: false }),
    onPointerMove(e: PointerEvent<HTMLCanvasElement>) {
      const d = drag.current;
      if (d && (d.moved || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 3)) {
        view.current = { ...view.current, tx: view.current.tx + e.clientX - d.x, ty: view.current.ty + e.clientY - d.y };
        drag.current = { x: e.clientX, y: e.clientY, moved: true };
        follow.current = false;
        return paint();
      }
      const hover = hitNode(scene, view.current, ...at(e));
      if (hover === marks.current.hover) return;
      marks.current.hover = hover;
      paint();
    },
    onPointerUp(e: PointerEvent<HTMLCanvasElement>) {
      const d = drag.current;
      drag.current = undefined;
      if (d && !d.moved) pick(...at(e));
    },
    onWheel: (e: WheelEvent<HTMLCanvasElement>) => zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, ...at(e)),
    onKeyDown(e: KeyboardEvent<HTMLCanvasElement>) {
      const el = canvas.current as HTMLCanvasElement;
      const pan: Record<string, [number, number]> = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
      const move = pan[e.key];
      if (move) {
        view.current = { ...view.current, tx: view.current.tx + move[0], ty: view.current.ty + move[1] };
        follow.current = false;
        paint();
      } else if (e.key === '+' || e.key === '=') zoom(1.2, el.clientWidth / 2, HEIGHT / 2);
      else if (e.key === '-') zoom(1 / 1.2, el.clientWidth / 2, HEIGHT / 2);
      else if (e.key === '0') recenterNow();
      else return;
      e.preventDefault();
    },
  };

  return (
    <canvas
      ref={canvas}
      id="neural-canvas"
      tabIndex={0}
      style={{ height: `${HEIGHT}px` }}
      aria-label={`Knowledge graph: ${scene.nodes.length} entities, ${scene.links.length} facts. Arrows pan, + and - zoom, 0 recenters; the list beside it opens each entity.`}
      {...handlers}
    />
  );
}
