//! The open set: a radix heap, a monotone integer priority queue that stays exact for keys of
//! any size.
//!
//! A* with a consistent heuristic pops `f` values that never decrease, and every `f` pushed is
//! at least the last one popped. A radix heap uses exactly that: an entry lives in bucket
//! `b`, the position of the highest bit in which its key differs from the last key popped
//! (bucket 0 when equal). Pushing is O(1); popping from an empty bucket 0 finds the lowest
//! occupied bucket, takes its smallest key as the new last key and spreads the bucket's
//! entries over the lower buckets, so each entry moves at most 64 times over its life, at any
//! cost scale (octile costs at scale 100 000 included), with no comparison heap.
//!
//! Ties: bucket 0 is a stack, so among equal `f` values the most recently generated entry
//! (a child of the node just expanded, so the deepest) pops first, which on terrain full of
//! equal `f` values goes straight for the goal. (Sorting the entries spread into bucket 0 by
//! `g` as well saved under 0.5% of the expansions on the terrain queries of `benches/graph.rs`
//! and cost more time than it saved.) Keys below the last key popped (an inconsistent heuristic such as the weighted or
//! Manhattan ones) go to a small binary heap that `pop` empties first, so the queue pops the
//! true minimum for any keys.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bucket 0 for keys equal to the last key popped, buckets 1 ..= 64 by highest differing bit.
const BUCKETS: usize = 65;

/// One entry: its key, a saturated `g` for breaking ties, the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    f: u64,
    deep: u32,
    node: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct OpenSet {
    /// The last key popped; every entry in the buckets is at least this.
    last: u64,
    buckets: Vec<Vec<Entry>>,
    /// Bit `b` set when bucket `b` is not empty.
    occupied: u128,
    /// Entries whose key is below `last`, lowest `f` (then highest `g`) first.
    below: BinaryHeap<Reverse<(u64, Reverse<u32>, u32)>>,
}

impl Default for OpenSet {
    fn default() -> Self {
        Self {
            last: 0,
            buckets: vec![Vec::new(); BUCKETS],
            occupied: 0,
            below: BinaryHeap::new(),
        }
    }
}

impl OpenSet {
    /// Empties the set, keeping its memory, with `f` as the smallest key to come.
    pub(crate) fn reset(&mut self, f: u64) {
        while self.occupied != 0 {
            let b = self.occupied.trailing_zeros() as usize;
            self.buckets[b].clear();
            self.occupied &= self.occupied - 1;
        }
        self.below.clear();
        self.last = f;
    }

    #[inline]
    fn bucket(&self, f: u64) -> usize {
        if f == self.last {
            0
        } else {
            64 - (f ^ self.last).leading_zeros() as usize
        }
    }

    /// Adds `node` with key `f` and path cost `g`.
    #[inline]
    pub(crate) fn push(&mut self, f: u64, g: u64, node: u32) {
        let deep = u32::try_from(g).unwrap_or(u32::MAX);
        if f < self.last {
            self.below.push(Reverse((f, Reverse(deep), node)));
            return;
        }
        let b = self.bucket(f);
        self.buckets[b].push(Entry { f, deep, node });
        self.occupied |= 1 << b;
    }

    /// Removes an entry with the lowest key and returns it with its key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        self.pop_with_depth().map(|(f, _, node)| (f, node))
    }

    /// Removes an entry with the lowest key and returns its key, its `g` as pushed (saturated
    /// to `u32::MAX`) and its node.
    #[inline]
    pub(crate) fn pop_with_depth(&mut self) -> Option<(u64, u32, u32)> {
        if let Some(Reverse((f, Reverse(deep), node))) = self.below.pop() {
            return Some((f, deep, node));
        }
        if self.occupied & 1 == 0 {
            self.refill()?;
        }
        let bucket = &mut self.buckets[0];
        let entry = bucket.pop()?;
        if bucket.is_empty() {
            self.occupied &= !1;
        }
        Some((entry.f, entry.deep, entry.node))
    }

    /// Bucket 0 is empty: moves the lowest key of the lowest occupied bucket into `last` and
    /// spreads that bucket. `None` when the set is empty.
    #[cold]
    fn refill(&mut self) -> Option<()> {
        if self.occupied == 0 {
            return None;
        }
        let b = self.occupied.trailing_zeros() as usize;
        let mut entries = std::mem::take(&mut self.buckets[b]);
        self.occupied &= !(1 << b);
        self.last = entries.iter().map(|e| e.f).min()?;
        for entry in entries.drain(..) {
            let to = self.bucket(entry.f);
            self.buckets[to].push(entry);
            self.occupied |= 1 << to;
        }
        // Give the emptied vector's memory back to its bucket.
        self.buckets[b] = entries;
        Some(())
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
