//! The open set: a ring of buckets for small integer `f` values near the current minimum,
//! backed by a binary heap for everything else.
//!
//! With a consistent heuristic every `f` pushed lies within a few move costs above the last
//! `f` popped, so almost every push and pop is an O(1) bucket operation; buckets are LIFO,
//! which breaks ties toward the most recently generated (deepest) node. Entries outside the
//! ring's window (an unusually large [`crate::VoxelWorld::extra_cost`], an inconsistent
//! heuristic, large cost scales) go to the heap, and `pop` always takes the smaller of the
//! two minima, so the queue is exact for any keys.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Buckets in the ring; a power of two.
const RING: usize = 256;
const WORDS: usize = RING / 64;

/// A heap entry: the lowest `f` first, then the highest `deep` (a saturated `g`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HeapEntry {
    f: u64,
    deep: u32,
    node: u32,
}

impl Ord for HeapEntry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.cmp(&self.f).then(self.deep.cmp(&other.deep))
    }
}

impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Debug, Clone)]
pub(crate) struct OpenSet {
    /// The `f` of bucket `cursor & (RING - 1)`; buckets hold `f` in `base .. base + RING`.
    base: u64,
    buckets: Vec<Vec<u32>>,
    occupied: [u64; WORDS],
    in_ring: usize,
    heap: BinaryHeap<HeapEntry>,
}

impl Default for OpenSet {
    fn default() -> Self {
        Self {
            base: 0,
            buckets: vec![Vec::new(); RING],
            occupied: [0; WORDS],
            in_ring: 0,
            heap: BinaryHeap::new(),
        }
    }
}

impl OpenSet {
    /// Empties the set and places the ring's window at `f`.
    pub(crate) fn reset(&mut self, f: u64) {
        if self.in_ring > 0 {
            for bucket in &mut self.buckets {
                bucket.clear();
            }
        }
        self.occupied = [0; WORDS];
        self.in_ring = 0;
        self.heap.clear();
        self.base = f;
    }

    #[inline]
    pub(crate) fn push(&mut self, f: u64, g: u64, node: u32) {
        if f >= self.base && f - self.base < RING as u64 {
            let index = (f as usize) & (RING - 1);
            self.buckets[index].push(node);
            self.occupied[index / 64] |= 1 << (index % 64);
            self.in_ring += 1;
        } else {
            self.heap.push(HeapEntry {
                f,
                deep: u32::try_from(g).unwrap_or(u32::MAX),
                node,
            });
        }
    }

    /// The entry with the lowest `f` (and its `f`).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.in_ring > 0 {
            let f = self.ring_min();
            if self.heap.peek().is_none_or(|top| top.f > f) {
                let index = (f as usize) & (RING - 1);
                let bucket = &mut self.buckets[index];
                let node = bucket.pop()?;
                if bucket.is_empty() {
                    self.occupied[index / 64] &= !(1 << (index % 64));
                }
                self.in_ring -= 1;
                self.base = f;
                return Some((f, node));
            }
        }
        self.heap.pop().map(|entry| (entry.f, entry.node))
    }

    /// The lowest `f` in the ring, which is not empty.
    #[inline]
    fn ring_min(&self) -> u64 {
        let start = (self.base as usize) & (RING - 1);
        let (word, bit) = (start / 64, start % 64);
        // The first occupied bucket at or after `start`, going round the ring.
        let here = self.occupied[word] & (u64::MAX << bit);
        let offset = if here != 0 {
            here.trailing_zeros() as usize - bit
        } else {
            let mut found = RING;
            for step in 1..=WORDS {
                let w = (word + step) % WORDS;
                let bits = if step == WORDS {
                    self.occupied[w] & !(u64::MAX << bit)
                } else {
                    self.occupied[w]
                };
                if bits != 0 {
                    found = step * 64 + bits.trailing_zeros() as usize - bit;
                    break;
                }
            }
            found
        };
        self.base + offset as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_of_f_whatever_the_pushes() {
        let mut open = OpenSet::default();
        let mut reference = Vec::new();
        let mut state = 12345u64;
        open.reset(1000);
        for round in 0..20_000u32 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let r = state >> 33;
            if !r.is_multiple_of(3) || reference.is_empty() {
                // Mostly near the window, sometimes far above it or below it.
                let low = reference.iter().map(|&(f, _)| f).min().unwrap_or(1000);
                let f = match r % 10 {
                    0 => low + 10_000 + r % 1000,
                    1 => low.saturating_sub(r % 50),
                    _ => low + r % 300,
                };
                open.push(f, 0, round);
                reference.push((f, round));
            } else {
                let (f, node) = open.pop().unwrap();
                let min = reference.iter().map(|&(f, _)| f).min().unwrap();
                assert_eq!(f, min);
                let at = reference.iter().position(|&e| e == (f, node)).unwrap();
                reference.swap_remove(at);
            }
        }
        while let Some((f, node)) = open.pop() {
            let min = reference.iter().map(|&(f, _)| f).min().unwrap();
            assert_eq!(f, min);
            let at = reference.iter().position(|&e| e == (f, node)).unwrap();
            reference.swap_remove(at);
        }
        assert!(reference.is_empty());
    }
}
