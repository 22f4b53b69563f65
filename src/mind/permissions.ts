/** Seed 004's write-permission table, as data, and the pure check the kernel applies to every write. */
import type { Author } from './schemas.js';

export const LOOPS = ['action', 'explore', 'reflect'] as const;
export type Loop = (typeof LOOPS)[number];

/** The table's rows. `goals.status` covers status changes and (where marked) creating goals; `goals.weight` covers weights and perpetual status. */
export const RESOURCES = ['soul', 'values', 'goals.status', 'goals.weight', 'skills', 'memory'] as const;
export type Resource = (typeof RESOURCES)[number];

export type Access = 'read' | 'read+write' | 'read+write (create)';

/** One cell per loop and resource, transcribed from the seed. */
export const PERMISSIONS: Readonly<Record<Resource, Readonly<Record<Loop, Access>>>> = {
  soul: { action: 'read', explore: 'read', reflect: 'read+write' },
  values: { action: 'read', explore: 'read', reflect: 'read+write' },
  'goals.status': { action: 'read+write', explore: 'read+write (create)', reflect: 'read+write' },
  'goals.weight': { action: 'read', explore: 'read', reflect: 'read+write' },
  skills: { action: 'read+write (create)', explore: 'read', reflect: 'read' },
  memory: { action: 'read+write', explore: 'read+write', reflect: 'read+write' },
};

export const mayWrite = (loop: Loop, resource: Resource): boolean => PERMISSIONS[resource][loop] !== 'read';

/** The memories a loop may read: kernel entries are the audit trail, below reflection's consciousness. */
export const readableAuthors = (loop: Loop): readonly Author[] =>
  loop === 'reflect' ? ['self', 'goal', 'external'] : ['self', 'kernel', 'goal', 'external'];

/**
 * Authors a loop's model may write as: only the kernel writes kernel memories, and `external`
 * (what the user said) only as the kernel heard it, never as a model says the user did.
 */
export const writableAuthors: readonly Author[] = ['self', 'goal'];
