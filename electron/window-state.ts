import type { Rectangle } from 'electron';
import { z } from 'zod';

/*
 * The main window's size and position, remembered between openings and launches. A display may
 * be gone by then (a laptop off its dock), so the saved bounds are brought back onto a display
 * that is there before the window uses them.
 */

export const WINDOW_BOUNDS_KEY = 'shell.windowBounds';
const DEFAULT_WINDOW_SIZE = { width: 1100, height: 720 } as const;
export const MIN_WINDOW_SIZE = { width: 720, height: 480 } as const;

const Bounds = z.object({ x: z.int(), y: z.int(), width: z.int(), height: z.int() });

/** What is stored, if it is a rectangle at all; a hand-edited or older value is ignored. */
export function readBounds(stored: unknown): Rectangle | undefined {
  const parsed = Bounds.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Saved bounds made to fit the display they overlap most (the primary one — the first — when
 * they overlap none): no larger than its work area, and wholly inside it. Without saved bounds,
 * the default size, centred by Electron (no x/y).
 */
export function placeWindow(
  saved: Rectangle | undefined,
  workAreas: readonly Rectangle[],
): Partial<Rectangle> & { width: number; height: number } {
  const [primary] = workAreas;
  if (!saved || !primary) return { ...DEFAULT_WINDOW_SIZE };
  const area = workAreas.reduce(
    (best, a) => (overlap(saved, a) > overlap(saved, best) ? a : best),
    primary,
  );
  const width = clamp(saved.width, Math.min(MIN_WINDOW_SIZE.width, area.width), area.width);
  const height = clamp(saved.height, Math.min(MIN_WINDOW_SIZE.height, area.height), area.height);
  return {
    x: clamp(saved.x, area.x, area.x + area.width - width),
    y: clamp(saved.y, area.y, area.y + area.height - height),
    width,
    height,
  };
}

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
