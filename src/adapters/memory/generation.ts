// The generation counter copy-on-write structures share, and the chunk size of the chunked ones.

/**
 * Generation counter of one store. Every node (vector chunk, list, map shard, spine) records the
 * generation it was created in and is written in place only while that is the current one; a
 * snapshot or a restore moves to a new generation, so from then on the live structures copy a node
 * before changing it and the snapshot's nodes are never touched again.
 */
export class Generation {
  current = 1;

  /** Starts a new generation: every existing node becomes shared (read-only). */
  next(): void {
    this.current += 1;
  }
}

/** log2 of the slots of a vector chunk and of the values of an ordinal-list chunk. */
export const CHUNK_BITS = 9;
/** Slots of a vector chunk; values of an ordinal-list chunk before it seals. */
export const CHUNK = 1 << CHUNK_BITS;
/** Slot of an ordinal within its chunk. */
export const CHUNK_MASK = CHUNK - 1;
